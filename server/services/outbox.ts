import { randomUUID } from 'node:crypto'
import { mkdir, open, readdir, readFile, rename, rm, unlink } from 'node:fs/promises'
import { join } from 'node:path'
import type { ContactMessage } from '#shared/contact-schema.ts'

/** An accepted contact message: its id (the job id with Redis) and when it came in. */
export type ContactSubmission = {
  id: string
  receivedAt: string
  message: ContactMessage
}

/** One accepted contact message waiting for delivery in the file outbox. */
export type OutboxEntry = ContactSubmission & {
  attempts: number
  /** Epoch milliseconds before which no new delivery attempt is made. */
  nextAttemptAt: number
  lastError?: string
}

const SUFFIX = '.json'
const ID = /^[0-9a-f-]{36}$/

async function writeDurably(path: string, data: string) {
  const handle = await open(path, 'w', 0o600)
  try {
    await handle.writeFile(data, 'utf8')
    await handle.sync()
  } finally {
    await handle.close()
  }
}

async function syncDirectory(dir: string) {
  const handle = await open(dir, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
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
          return null // removed meanwhile, or unreadable: left for an operator, never deleted
        }
      }),
    )
    return entries
      .filter((entry): entry is OutboxEntry => entry !== null)
      .sort((a, b) => a.receivedAt.localeCompare(b.receivedAt))
  }

  async remove(id: string): Promise<void> {
    await unlink(join(this.dir, `${id}${SUFFIX}`))
    await syncDirectory(this.dir)
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
