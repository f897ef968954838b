import { createHash, randomUUID } from 'node:crypto'
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises'
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
 * A mail the site writes itself to `MAIL_TO` (the weekly insight summary,
 * docs/insight.md#insight-which-pages-bring-leads): no personal data; `receivedAt` is when it
 * was queued. It carries what the mail says as data, never the mail: the worker writes the
 * mail when it sends it, with the writer `kind` names, as it writes a lead's
 * (docs/decisions/stores-hold-data-not-mails.md).
 */
export type SiteMail = {
  id: string
  receivedAt: string
  kind: string
  data: unknown
}

/**
 * The outbox id of a site mail named `name` (a week's summary, a day's digest): the same on
 * every replica and after every restart, so a store never holds it twice. A UUID of version 8
 * (RFC 9562's custom version, made from a SHA-256 of the name), where a visitor's submission id
 * must be a version 4 UUID (the contact schema): no post can take a site mail's id in advance.
 */
export function siteMailId(name: string): string {
  const hex = createHash('sha256').update(name).digest('hex')
  const variant = ((parseInt(hex.slice(16, 17), 16) & 0x3) | 0x8).toString(16)
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-8${hex.slice(13, 16)}-${variant}${hex.slice(17, 20)}-${hex.slice(20, 32)}`
}

/** What the outbox and the Redis queue carry: visitors' messages and the site's own mails. */
export type OutboxItem = ContactSubmission | SiteMail

/** Is the item a visitor's message (rather than a mail of the site's own)? */
export function isContactSubmission(item: OutboxItem): item is ContactSubmission {
  return 'message' in item
}

/**
 * Where a message waits in the file outbox and when it is tried next: all the folder's
 * listing says, so that the metrics, a delivery pass and the sweeps read no message.
 */
export type OutboxSlot = {
  id: string
  /** Epoch milliseconds. */
  receivedAt: number
  /** Delivery attempts so far. */
  attempts: number
  /** Epoch milliseconds before which no new delivery attempt is made. */
  nextAttemptAt: number
  /** The file's name in the folder. */
  name: string
}

const SUFFIX = '.json'
const ID = /^[0-9a-f-]{36}$/
/** `<id>.<receivedAt>.<attempts>.<nextAttemptAt>.json`, the times in epoch ms. */
const SLOT_NAME = /^([0-9a-f-]{36})\.(\d{1,15})\.(\d{1,9})\.(\d{1,15})\.json$/
/** The name earlier versions gave a message: `<id>.json`, its schedule inside. */
const LEGACY_NAME = /^([0-9a-f-]{36})\.json$/
/**
 * A `.tmp` file is a write in progress, or one a crash cut off (never a message): removed once
 * it is this old, so that a second process on the folder (an operator's command) never
 * deletes a write in progress.
 */
const TMP_MAX_AGE_MS = 10 * 60_000

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

function slotName(id: string, receivedAt: number, attempts: number, nextAttemptAt: number) {
  return `${id}.${receivedAt}.${attempts}.${nextAttemptAt}${SUFFIX}`
}

function parseSlot(name: string): OutboxSlot | null {
  const match = SLOT_NAME.exec(name)
  if (!match) return null
  const [, id = '', received, attempts, next] = match
  return {
    id,
    receivedAt: Number(received),
    attempts: Number(attempts),
    nextAttemptAt: Number(next),
    name,
  }
}

/** Where earlier versions kept a message's retry schedule: inside its file. */
const SCHEDULE_FIELDS = new Set(['attempts', 'nextAttemptAt', 'lastError'])

/** What a file holds, as an item: the schedule fields of earlier versions' files left out. */
function itemOf(value: unknown): OutboxItem | null {
  if (typeof value !== 'object' || value === null) return null
  const item = Object.fromEntries(
    Object.entries(value).filter(([field]) => !SCHEDULE_FIELDS.has(field)),
  )
  return typeof item.id === 'string' && typeof item.receivedAt === 'string'
    ? (item as OutboxItem)
    : null
}

/**
 * A folder of JSON files, one per message (docs/decisions/outbox-listed-by-name.md). A write
 * goes to a temporary file that is fsynced, renamed into place and the folder fsynced: after
 * `put` resolves the message survives a crash or power loss, and a reader never sees half a
 * file. A file's name carries the message's id, when it came in and its retry schedule, so
 * everything but a delivery and an erasure works from the listing alone, and memory never
 * grows with what waits; a retry's new schedule is a rename. Messages are read one at a time.
 */
export class FileOutbox {
  readonly dir: string
  /** Ids being stored by this process: a second `put` of one waits for the first. */
  readonly #storing = new Map<string, Promise<void>>()
  /**
   * The ids in the folder as of its last listing, with what this process stored and removed
   * since: a `put` looks here, never at the whole folder. Ids only (36 characters each).
   */
  #ids: Set<string> | null = null

  constructor(dir: string) {
    this.dir = dir
  }

  async init(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 })
    await this.#removeStaleTemporaries()
  }

  /**
   * Stores an item durably; one whose id is already there is not stored again (a repeated
   * request is no second lead). A failed write (a full disk, a folder that cannot be written)
   * rejects and leaves nothing behind.
   */
  async put(item: OutboxItem): Promise<void> {
    if (!ID.test(item.id)) throw new Error('invalid outbox id')
    const pending = this.#storing.get(item.id)
    if (pending) return pending
    const storing = this.#store(item).finally(() => this.#storing.delete(item.id))
    this.#storing.set(item.id, storing)
    return storing
  }

  async #store(item: OutboxItem): Promise<void> {
    if (!this.#ids) await this.slots()
    if (this.#ids?.has(item.id)) return
    const received = Date.parse(item.receivedAt)
    const name = slotName(item.id, Number.isFinite(received) ? received : Date.now(), 0, 0)
    const target = join(this.dir, name)
    const temporary = `${target}.${randomUUID()}.tmp`
    try {
      await writeDurably(temporary, JSON.stringify(item))
      await rename(temporary, target)
    } catch (error) {
      await rm(temporary, { force: true }).catch(() => {})
      throw error
    }
    this.#ids?.add(item.id)
    await syncDirectory(this.dir)
  }

  /**
   * Every message's slot, oldest first, from the folder's listing. A file of an earlier
   * version (`<id>.json`) is renamed to its slot on the way, read once; one that does not
   * read as a message keeps its name and counts from its last change, never due.
   */
  async slots(): Promise<OutboxSlot[]> {
    const slots: OutboxSlot[] = []
    for (const name of await readdir(this.dir)) {
      const slot = parseSlot(name) ?? (LEGACY_NAME.test(name) ? await this.#upgrade(name) : null)
      if (slot) slots.push(slot)
    }
    this.#ids = new Set(slots.map((slot) => slot.id))
    return slots.sort((a, b) => a.receivedAt - b.receivedAt)
  }

  /** An earlier version's file as a slot: renamed when it reads as a message. */
  async #upgrade(name: string): Promise<OutboxSlot | null> {
    const path = join(this.dir, name)
    const id = name.slice(0, -SUFFIX.length)
    let value: Record<string, unknown> | null = null
    try {
      value = JSON.parse(await readFile(path, 'utf8')) as Record<string, unknown>
    } catch {
      // unreadable, or removed meanwhile: judged by the file's age below
    }
    const received = typeof value?.receivedAt === 'string' ? Date.parse(value.receivedAt) : NaN
    if (!itemOf(value) || !Number.isFinite(received)) {
      const changed = await stat(path).then(
        (info) => info.mtimeMs,
        () => null,
      )
      if (changed === null) return null
      return { id, receivedAt: Math.floor(changed), attempts: 0, nextAttemptAt: Infinity, name }
    }
    const attempts = Number.isSafeInteger(value?.attempts) ? Number(value?.attempts) : 0
    const next = Number.isSafeInteger(value?.nextAttemptAt) ? Number(value?.nextAttemptAt) : 0
    const upgraded = slotName(id, received, attempts, next)
    try {
      await rename(path, join(this.dir, upgraded))
      await syncDirectory(this.dir)
    } catch {
      return null // removed meanwhile
    }
    return parseSlot(upgraded)
  }

  /** The item in a slot, or null when it is gone or does not read as a message. */
  async read(slot: OutboxSlot): Promise<OutboxItem | null> {
    try {
      return itemOf(JSON.parse(await readFile(join(this.dir, slot.name), 'utf8')))
    } catch {
      return null
    }
  }

  /** Every item, oldest first, read one at a time (for moving them elsewhere). */
  async *items(): AsyncGenerator<{ slot: OutboxSlot; item: OutboxItem }> {
    for (const slot of await this.slots()) {
      const item = await this.read(slot)
      if (item) yield { slot, item }
    }
  }

  /** A retry's new schedule (a rename); false if the message is gone (purged or erased). */
  async reschedule(slot: OutboxSlot, attempts: number, nextAttemptAt: number): Promise<boolean> {
    const name = slotName(slot.id, slot.receivedAt, attempts, Math.round(nextAttemptAt))
    try {
      await rename(join(this.dir, slot.name), join(this.dir, name))
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false
      throw error
    }
    await syncDirectory(this.dir)
    return true
  }

  /** Removes a message; one already gone (purged or erased meanwhile) is no error. */
  async remove(slot: OutboxSlot): Promise<void> {
    await this.#removeNames([slot.name])
  }

  async #removeNames(names: readonly string[]) {
    for (const name of names) {
      await rm(join(this.dir, name), { force: true })
      if (parseSlot(name) || LEGACY_NAME.test(name)) this.#ids?.delete(name.slice(0, 36))
    }
    if (names.length > 0) await syncDirectory(this.dir)
  }

  /** Write leftovers older than `TMP_MAX_AGE_MS` (a crash's), with the personal data in them. */
  async #removeStaleTemporaries(now = Date.now()) {
    const stale: string[] = []
    for (const name of await readdir(this.dir)) {
      if (!name.endsWith('.tmp')) continue
      const changed = await stat(join(this.dir, name)).then(
        (info) => info.mtimeMs,
        () => now,
      )
      if (now - changed >= TMP_MAX_AGE_MS) stale.push(name)
    }
    await this.#removeNames(stale)
  }

  /**
   * Removes every message received before `cutoff` (epoch ms): undeliverable for the whole
   * retention period (docs/contact.md#retention-and-erasure), and write leftovers of a crash. A
   * file that does not read as a message counts from its last change.
   */
  async purgeReceivedBefore(cutoff: number): Promise<RemovedEntry[]> {
    await this.#removeStaleTemporaries()
    const expired = (await this.slots()).filter((slot) => slot.receivedAt < cutoff)
    await this.#removeNames(expired.map((slot) => slot.name))
    return expired.map(({ id, receivedAt, attempts, nextAttemptAt }) =>
      Number.isFinite(nextAttemptAt)
        ? { id, receivedAt: new Date(receivedAt).toISOString(), attempts }
        : { id },
    )
  }

  /**
   * Removes every message sent from `email` (erasure on request, GDPR Art. 17), reading one
   * file at a time. A file that does not read as a message goes if the address appears
   * anywhere in it.
   */
  async eraseSender(email: string): Promise<number> {
    const key = senderKey(email)
    const matches: string[] = []
    for (const slot of await this.slots()) {
      let text: string
      try {
        text = await readFile(join(this.dir, slot.name), 'utf8')
      } catch {
        continue // removed meanwhile
      }
      let sender: unknown
      try {
        // Parsed JSON is not proof of an entry's shape: a file without the field is searched.
        sender = (JSON.parse(text) as { message?: { email?: unknown } } | null)?.message?.email
      } catch {
        sender = undefined
      }
      const isMatch =
        typeof sender === 'string' ? senderKey(sender) === key : text.toLowerCase().includes(key)
      if (isMatch) matches.push(slot.name)
    }
    await this.#removeNames(matches)
    return matches.length
  }

  /**
   * How many messages wait, and when the longest-waiting one came in (epoch ms; null when none
   * waits): one pass over the listing of names, no file read.
   */
  async census(): Promise<{ size: number; oldestReceivedAt: number | null }> {
    let size = 0
    let oldest: number | null = null
    // Names only, in one listing (12,000 of them are about a megabyte, for a moment).
    for (const name of await readdir(this.dir)) {
      const slot = parseSlot(name)
      if (!slot && !LEGACY_NAME.test(name)) continue
      size++
      // A file of an earlier version waits too; its time is read when it is next listed.
      if (slot && (oldest === null || slot.receivedAt < oldest)) oldest = slot.receivedAt
    }
    return { size, oldestReceivedAt: oldest }
  }

  async size(): Promise<number> {
    return (await this.census()).size
  }

  /**
   * Can a message be stored right now? A probe of a message's size, written durably and
   * removed: a full disk refuses it as it would refuse a message (root ignores permissions,
   * so only a write tells).
   */
  async isWritable(): Promise<boolean> {
    const probe = join(this.dir, `.probe-${randomUUID()}.tmp`)
    try {
      await writeDurably(probe, PROBE)
      return true
    } catch {
      return false
    } finally {
      await rm(probe, { force: true }).catch(() => {})
    }
  }
}

/** What `isWritable` writes: about a message's size (16 kB). */
const PROBE = ' '.repeat(16 * 1024)
