import { randomUUID } from 'node:crypto'
import { mkdir, readdir, readFile, rename, rm, stat } from 'node:fs/promises'
import { join } from 'node:path'
import type { Redis } from 'ioredis'
import type { ContactFormId } from '#shared/contact-fields.ts'
import type { ContactMessage } from '#shared/contact-schema.ts'
import { syncDirectory, writeDurably } from '../../lib/durable-file.ts'
import { senderKey, type ContactSubmission, type RemovedEntry } from './outbox.ts'
import type { DropReason } from '../spam/index.ts'

/**
 * The quarantine (docs/contact.md#quarantine; docs/decisions/quarantine.md): every post the spam
 * defence drops that is a message at all, kept undelivered with its reason, as a mail system
 * keeps a spam folder. A layer that
 * misjudged a person (a proxy that strips headers, a quick autofill, keys changed under an
 * open form) then costs no lead: an operator lists the entries, reads one and releases it into
 * the outbox, where it is delivered like any lead, its reason in the subject.
 *
 * Bounded, because bots fill it: at most `maxEntries` entries and `maxBytes` bytes, the
 * oldest going first (counted). Kept `QUARANTINE_DAYS`, then deleted by the hourly retention
 * sweep; erasure on request reaches it. A folder beside the file outbox with one replica, a
 * hash and a sorted set in Redis with several (one atomic script per change, so replicas
 * share one bound).
 */
export type QuarantineEntry = {
  /** The entry's own id (a UUID); released, the lead's id. */
  id: string
  receivedAt: string
  reason: DropReason
  form: ContactFormId
  message: ContactMessage
}

/** What the operator's list shows of an entry: no address, no text. */
type QuarantineSummary = Pick<QuarantineEntry, 'id' | 'receivedAt' | 'reason' | 'form'> & {
  locale: ContactMessage['locale']
  /** Bytes the entry takes in the store. */
  bytes: number
}

export type QuarantineLimits = { maxEntries: number; maxBytes: number }

export type QuarantineStats = { entries: number; bytes: number }

export interface Quarantine {
  /** Keeps an entry; resolves with how many older entries the bounds pushed out. */
  put(entry: QuarantineEntry): Promise<number>
  /** Every entry, oldest first. */
  list(): Promise<(QuarantineSummary & { entry: QuarantineEntry })[]>
  get(id: string): Promise<QuarantineEntry | null>
  /** Removes one entry; false if it was not there (released or deleted meanwhile). */
  remove(id: string): Promise<boolean>
  /** Removes every entry received before `cutoff` (epoch ms): the retention sweep. */
  purgeReceivedBefore(cutoff: number): Promise<RemovedEntry[]>
  /** Removes every entry from `email` (erasure on request, GDPR Art. 17); how many. */
  eraseSender(email: string): Promise<number>
  stats(): Promise<QuarantineStats>
}

/** A new entry for a dropped post. */
export function quarantineEntry(
  reason: DropReason,
  form: ContactFormId,
  message: ContactMessage,
  now = new Date(),
): QuarantineEntry {
  return { id: randomUUID(), receivedAt: now.toISOString(), reason, form, message }
}

/** An entry released by the operator: a lead like any other, marked with its reason. */
export function releasedSubmission(entry: QuarantineEntry): ContactSubmission {
  return {
    id: entry.id,
    receivedAt: entry.receivedAt,
    message: entry.message,
    released: entry.reason,
  }
}

function summaryOf(entry: QuarantineEntry, bytes: number) {
  const { id, receivedAt, reason, form } = entry
  return { id, receivedAt, reason, form, locale: entry.message.locale, bytes, entry }
}

/** The quarantine's folder inside the file outbox's (`OUTBOX_DIR`). */
export const QUARANTINE_FOLDER = 'quarantine'

const SUFFIX = '.json'
const ID = /^[0-9a-f-]{36}$/

function isEntry(value: unknown): value is QuarantineEntry {
  const entry = value as Partial<QuarantineEntry> | null
  return (
    typeof entry === 'object' &&
    entry !== null &&
    typeof entry.id === 'string' &&
    typeof entry.receivedAt === 'string' &&
    typeof entry.reason === 'string' &&
    typeof entry.message === 'object'
  )
}

/**
 * One replica's quarantine: a folder of JSON files written like the outbox's (fsynced,
 * renamed into place). The bound is kept with an index of ids, times and sizes in memory,
 * read from the folder at start and again whenever the folder is counted (the metrics, every
 * sweep), so what the operator's command removed is seen.
 */
export class FileQuarantine implements Quarantine {
  readonly dir: string
  readonly #limits: QuarantineLimits
  /** id → time and size, oldest first. */
  #index = new Map<string, { at: number; bytes: number }>()
  #bytes = 0

  constructor(dir: string, limits: QuarantineLimits) {
    this.dir = dir
    this.#limits = limits
  }

  async init(): Promise<void> {
    await mkdir(this.dir, { recursive: true, mode: 0o700 })
    for (const name of await readdir(this.dir)) {
      if (name.endsWith('.tmp')) await rm(join(this.dir, name), { force: true })
    }
    await this.stats()
  }

  #path(id: string): string {
    if (!ID.test(id)) throw new Error('invalid quarantine id')
    return join(this.dir, `${id}${SUFFIX}`)
  }

  async put(entry: QuarantineEntry): Promise<number> {
    const target = this.#path(entry.id)
    const text = JSON.stringify(entry)
    const temporary = `${target}.${randomUUID()}.tmp`
    await writeDurably(temporary, text)
    await rename(temporary, target)
    await syncDirectory(this.dir)
    const bytes = Buffer.byteLength(text)
    this.#index.set(entry.id, { at: Date.parse(entry.receivedAt), bytes })
    this.#bytes += bytes
    // The victims are chosen at once, so puts running side by side never pick the same one.
    const victims: string[] = []
    for (const [id, kept] of this.#index) {
      if (this.#index.size <= this.#limits.maxEntries && this.#bytes <= this.#limits.maxBytes) {
        break
      }
      if (id === entry.id) continue
      this.#index.delete(id)
      this.#bytes -= kept.bytes
      victims.push(id)
    }
    for (const id of victims) await rm(this.#path(id), { force: true })
    if (victims.length > 0) await syncDirectory(this.dir)
    return victims.length
  }

  async #read(name: string): Promise<{ entry: QuarantineEntry; bytes: number } | null> {
    try {
      const text = await readFile(join(this.dir, name), 'utf8')
      const entry: unknown = JSON.parse(text)
      return isEntry(entry) ? { entry, bytes: Buffer.byteLength(text) } : null
    } catch {
      return null // removed meanwhile, or unreadable: the retention sweep judges it by its age
    }
  }

  async #names(): Promise<string[]> {
    return (await readdir(this.dir)).filter((name) => name.endsWith(SUFFIX))
  }

  async list() {
    const read = await Promise.all((await this.#names()).map((name) => this.#read(name)))
    return read
      .filter((item) => item !== null)
      .map(({ entry, bytes }) => summaryOf(entry, bytes))
      .sort((a, b) => a.receivedAt.localeCompare(b.receivedAt))
  }

  async get(id: string): Promise<QuarantineEntry | null> {
    return ID.test(id) ? ((await this.#read(`${id}${SUFFIX}`))?.entry ?? null) : null
  }

  async remove(id: string): Promise<boolean> {
    if (!ID.test(id)) return false
    const path = this.#path(id)
    const existed = await stat(path).then(
      () => true,
      () => false,
    )
    await rm(path, { force: true })
    await syncDirectory(this.dir)
    const kept = this.#index.get(id)
    if (kept) {
      this.#index.delete(id)
      this.#bytes -= kept.bytes
    }
    return existed
  }

  async #removeWhere(
    predicate: (file: { entry: QuarantineEntry | null; at: number }) => boolean,
  ): Promise<RemovedEntry[]> {
    const removed: RemovedEntry[] = []
    for (const name of await this.#names()) {
      const path = join(this.dir, name)
      const read = await this.#read(name)
      // A file that does not read as an entry counts from its last change.
      const at = read
        ? Date.parse(read.entry.receivedAt)
        : await stat(path).then(
            (info) => info.mtimeMs,
            () => Infinity,
          )
      if (!predicate({ entry: read?.entry ?? null, at })) continue
      await rm(path, { force: true })
      const id = name.slice(0, -SUFFIX.length)
      removed.push(read ? { id, receivedAt: read.entry.receivedAt } : { id })
    }
    if (removed.length > 0) await syncDirectory(this.dir)
    await this.stats()
    return removed
  }

  purgeReceivedBefore(cutoff: number): Promise<RemovedEntry[]> {
    return this.#removeWhere(({ at }) => at < cutoff)
  }

  async eraseSender(email: string): Promise<number> {
    const key = senderKey(email)
    const removed = await this.#removeWhere(
      ({ entry }) => entry !== null && senderKey(entry.message.email) === key,
    )
    return removed.length
  }

  /** Counts the folder and renews the index from it (what other processes changed). */
  async stats(): Promise<QuarantineStats> {
    const index = new Map<string, { at: number; bytes: number }>()
    const files = await Promise.all(
      (await this.#names()).map(async (name) => {
        const info = await stat(join(this.dir, name)).catch(() => null)
        return info
          ? { id: name.slice(0, -SUFFIX.length), at: info.mtimeMs, bytes: info.size }
          : null
      }),
    )
    let bytes = 0
    for (const file of files.filter((item) => item !== null).sort((a, b) => a.at - b.at)) {
      index.set(file.id, { at: file.at, bytes: file.bytes })
      bytes += file.bytes
    }
    this.#index = index
    this.#bytes = bytes
    return { entries: index.size, bytes }
  }
}

/** The Redis keys of the replicas' quarantine. */
const REDIS_KEYS = {
  /** Sorted set: entry id by receipt time (ms). */
  index: 'modernwerk:quarantine:index',
  /** Hash: entry id → the entry's JSON. */
  entries: 'modernwerk:quarantine:entries',
  /** The bytes of every entry's JSON together. */
  bytes: 'modernwerk:quarantine:bytes',
} as const

const KEYS = [REDIS_KEYS.index, REDIS_KEYS.entries, REDIS_KEYS.bytes] as const

/** Removes one entry (ARGV[1]) and its bytes; returns 1 if it was there. */
const REMOVE_ONE = `
local json = redis.call('HGET', KEYS[2], ARGV[1])
redis.call('ZREM', KEYS[1], ARGV[1])
if not json then return 0 end
redis.call('HDEL', KEYS[2], ARGV[1])
redis.call('DECRBY', KEYS[3], string.len(json))
return 1`

/**
 * Adds an entry (ARGV: id, time, JSON, max entries, max bytes), then removes the oldest until
 * both bounds hold; returns how many it removed. One script: replicas never overshoot.
 */
const PUT = `
if redis.call('HSETNX', KEYS[2], ARGV[1], ARGV[3]) == 0 then return 0 end
redis.call('ZADD', KEYS[1], ARGV[2], ARGV[1])
local bytes = redis.call('INCRBY', KEYS[3], string.len(ARGV[3]))
local count = redis.call('ZCARD', KEYS[1])
local evicted = 0
while count > tonumber(ARGV[4]) or bytes > tonumber(ARGV[5]) do
  local oldest = redis.call('ZRANGE', KEYS[1], 0, 1)
  local victim = oldest[1]
  if victim == ARGV[1] then victim = oldest[2] end
  if not victim then break end
  local json = redis.call('HGET', KEYS[2], victim)
  redis.call('ZREM', KEYS[1], victim)
  redis.call('HDEL', KEYS[2], victim)
  if json then bytes = redis.call('DECRBY', KEYS[3], string.len(json)) end
  count = count - 1
  evicted = evicted + 1
end
return evicted`

/**
 * The replicas' quarantine in Redis, on the site's fail-fast connection: with Redis away a
 * drop is not kept (logged), and nothing waits on it.
 */
export class RedisQuarantine implements Quarantine {
  readonly #redis: Redis
  readonly #limits: QuarantineLimits

  constructor(redis: Redis, limits: QuarantineLimits) {
    this.#redis = redis
    this.#limits = limits
  }

  async put(entry: QuarantineEntry): Promise<number> {
    const evicted = await this.#redis.eval(
      PUT,
      KEYS.length,
      ...KEYS,
      entry.id,
      String(Date.parse(entry.receivedAt)),
      JSON.stringify(entry),
      String(this.#limits.maxEntries),
      String(this.#limits.maxBytes),
    )
    return Number(evicted)
  }

  async list() {
    const ids = await this.#redis.zrange(REDIS_KEYS.index, '0', '-1')
    if (ids.length === 0) return []
    const texts = await this.#redis.hmget(REDIS_KEYS.entries, ...ids)
    return texts.flatMap((text) => {
      const entry = parse(text)
      return entry && text ? [summaryOf(entry, Buffer.byteLength(text))] : []
    })
  }

  async get(id: string): Promise<QuarantineEntry | null> {
    return parse(await this.#redis.hget(REDIS_KEYS.entries, id))
  }

  async remove(id: string): Promise<boolean> {
    return Number(await this.#redis.eval(REMOVE_ONE, KEYS.length, ...KEYS, id)) === 1
  }

  async #removeAll(ids: readonly string[]): Promise<void> {
    for (const id of ids) await this.remove(id)
  }

  async purgeReceivedBefore(cutoff: number): Promise<RemovedEntry[]> {
    const old = await this.#redis.zrangebyscore(
      REDIS_KEYS.index,
      '-inf',
      `(${cutoff}`,
      'WITHSCORES',
    )
    const removed: RemovedEntry[] = []
    for (let index = 0; index < old.length; index += 2) {
      const id = old[index] ?? ''
      if (await this.remove(id)) {
        removed.push({ id, receivedAt: new Date(Number(old[index + 1])).toISOString() })
      }
    }
    return removed
  }

  async eraseSender(email: string): Promise<number> {
    const key = senderKey(email)
    const ids = (await this.list())
      .filter(({ entry }) => senderKey(entry.message.email) === key)
      .map(({ id }) => id)
    await this.#removeAll(ids)
    return ids.length
  }

  async stats(): Promise<QuarantineStats> {
    const [entries, bytes] = await Promise.all([
      this.#redis.zcard(REDIS_KEYS.index),
      this.#redis.get(REDIS_KEYS.bytes),
    ])
    return { entries, bytes: Math.max(0, Number(bytes ?? 0)) }
  }
}

function parse(text: string | null | undefined): QuarantineEntry | null {
  if (!text) return null
  try {
    const entry: unknown = JSON.parse(text)
    return isEntry(entry) ? entry : null
  } catch {
    return null
  }
}
