import { randomUUID } from 'node:crypto'
import { mkdir, readdir, readFile, rename, rm, stat, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import type { ContactMessage } from '#shared/contact-schema.ts'
import { syncDirectory, writeDurably } from '../../lib/durable-file.ts'
import type { DropReason, SuspectReason } from '../spam/index.ts'

/** An accepted contact message: its id (the job id with Redis) and when it came in. */
export type ContactSubmission = {
  id: string
  receivedAt: string
  message: ContactMessage
  /** Signs of spam in the content: delivered all the same, marked in the subject. */
  suspect?: SuspectReason[]
  /**
   * Released from the quarantine by an operator (docs/contact.md#quarantine): why the spam defence
   * had dropped it, named in the mail's subject.
   */
  released?: DropReason
}

/**
 * A mail the site writes itself to `MAIL_TO`, not a visitor's message (the weekly insight
 * summary, docs/insight.md#insight-which-pages-bring-leads): no personal data; `receivedAt` is when
 * it was queued.
 */
export type SiteMail = {
  id: string
  receivedAt: string
  /** The text and, from this version on, an HTML document; items queued before have none. */
  mail: { subject: string; text: string; html?: string }
}

/** What the outbox and the Redis queue carry: visitors' messages and the site's own mails. */
export type OutboxItem = ContactSubmission | SiteMail

/** Is the item a visitor's message (rather than a mail of the site's own)? */
export function isContactSubmission(item: OutboxItem): item is ContactSubmission {
  return 'message' in item
}

/** One accepted contact message (or mail of the site's own) waiting in the file outbox. */
export type OutboxEntry = OutboxItem & {
  attempts: number
  /** Epoch milliseconds before which no new delivery attempt is made. */
  nextAttemptAt: number
  lastError?: string
}

const SUFFIX = '.json'
const ID = /^[0-9a-f-]{36}$/

/** A message that left the outbox without being delivered: what its log line may say. */
export type RemovedEntry = {
  id: string
  /** Missing when the file could not be read (its age is then the file's). */
  receivedAt?: string
  attempts?: number
}

/** The address a message came from, as compared for erasure: trimmed, lower case. */
export function senderKey(email: string): string {
  return email.trim().toLowerCase()
}

/**
 * A folder of JSON files, one per message. A write goes to a temporary file that is fsynced,
 * renamed into place and the folder fsynced: after `put` resolves the message survives a crash
 * or power loss, and a reader never sees half a file.
 */
export class FileOutbox {
  readonly dir: string

  constructor(dir: string) {
    this.dir = dir
  }

  async init(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 })
    // Leftovers of writes interrupted by a crash never became messages.
    for (const name of await readdir(this.dir)) {
      if (name.endsWith('.tmp')) await rm(join(this.dir, name), { force: true })
    }
  }

  async put(entry: OutboxEntry): Promise<void> {
    if (!ID.test(entry.id)) throw new Error('invalid outbox id')
    const target = join(this.dir, `${entry.id}${SUFFIX}`)
    const temporary = `${target}.${randomUUID()}.tmp`
    await writeDurably(temporary, JSON.stringify(entry))
    await rename(temporary, target)
    await syncDirectory(this.dir)
  }

  async list(): Promise<OutboxEntry[]> {
    const names = (await readdir(this.dir)).filter((name) => name.endsWith(SUFFIX))
    const entries = await Promise.all(
      names.map(async (name) => {
        try {
          return JSON.parse(await readFile(join(this.dir, name), 'utf8')) as OutboxEntry
        } catch {
          return null // removed meanwhile, or unreadable: purged after the retention period
        }
      }),
    )
    return entries
      .filter((entry): entry is OutboxEntry => entry !== null)
      .sort((a, b) => a.receivedAt.localeCompare(b.receivedAt))
  }

  /** Rewrites a message that is still there (a retry's schedule); false if it is gone. */
  async update(entry: OutboxEntry): Promise<boolean> {
    const exists = await stat(join(this.dir, `${entry.id}${SUFFIX}`)).then(
      () => true,
      () => false,
    )
    if (exists) await this.put(entry)
    return exists
  }

  /** Removes a message; one already gone (purged or erased meanwhile) is no error. */
  async remove(id: string): Promise<void> {
    await rm(join(this.dir, `${id}${SUFFIX}`), { force: true })
    await syncDirectory(this.dir)
  }

  /** Every file with its text and, if it reads as an entry, the entry. */
  async #files() {
    const names = (await readdir(this.dir)).filter((name) => name.endsWith(SUFFIX))
    const files = await Promise.all(
      names.map(async (name) => {
        const path = join(this.dir, name)
        try {
          const text = await readFile(path, 'utf8')
          let entry: OutboxEntry | null = null
          try {
            entry = JSON.parse(text) as OutboxEntry
          } catch {
            // unreadable: judged by the file's age and raw text below
          }
          return { path, id: name.slice(0, -SUFFIX.length), text, entry }
        } catch {
          return null // removed meanwhile
        }
      }),
    )
    return files.filter((file) => file !== null)
  }

  async #removeFiles(paths: readonly string[]) {
    for (const path of paths) await rm(path, { force: true })
    if (paths.length > 0) await syncDirectory(this.dir)
  }

  /**
   * Removes every message received before `cutoff` (epoch ms): undeliverable for the whole
   * retention period (docs/contact.md#retention-and-erasure). A file that does not read as a
   * message counts from its last change.
   */
  async purgeReceivedBefore(cutoff: number): Promise<RemovedEntry[]> {
    const removed: RemovedEntry[] = []
    const paths: string[] = []
    for (const { path, id, entry } of await this.#files()) {
      const received = entry ? Date.parse(entry.receivedAt) : NaN
      const age = Number.isFinite(received)
        ? received
        : await stat(path).then(
            (info) => info.mtimeMs,
            () => Infinity,
          )
      if (age >= cutoff) continue
      paths.push(path)
      removed.push(
        entry && Number.isFinite(received)
          ? { id, receivedAt: entry.receivedAt, attempts: entry.attempts }
          : { id },
      )
    }
    await this.#removeFiles(paths)
    return removed
  }

  /**
   * Removes every message sent from `email` (erasure on request, GDPR Art. 17). A file that
   * does not read as a message goes if the address appears anywhere in it.
   */
  async eraseSender(email: string): Promise<number> {
    const key = senderKey(email)
    const paths = (await this.#files())
      .filter(({ entry, text }) => {
        // Parsed JSON is not proof of an entry's shape: a file without the field is searched.
        const sender: unknown = (entry as { message?: { email?: unknown } } | null)?.message?.email
        return typeof sender === 'string'
          ? senderKey(sender) === key
          : text.toLowerCase().includes(key)
      })
      .map(({ path }) => path)
    await this.#removeFiles(paths)
    return paths.length
  }

  /** When the longest-waiting message came in (epoch ms), or null when none waits. */
  async oldestReceivedAt(): Promise<number | null> {
    const [oldest] = await this.list() // sorted by receivedAt (ISO dates sort as text)
    return oldest ? Date.parse(oldest.receivedAt) : null
  }

  async size(): Promise<number> {
    return (await readdir(this.dir)).filter((name) => name.endsWith(SUFFIX)).length
  }

  /** Can a message be stored right now? (Readiness: root ignores permissions, so try.) */
  async isWritable(): Promise<boolean> {
    const probe = join(this.dir, `.probe-${randomUUID()}.tmp`)
    try {
      await writeDurably(probe, '')
      await unlink(probe)
      return true
    } catch {
      return false
    }
  }
}
