import { appendFile, mkdir, readFile, rename, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import type { Redis } from 'ioredis'

/**
 * "Accepted once" (docs/contact.md#spam-defence): a key claimed for one value until it expires. The
 * contact route claims a form token for the submission that uses it, so the same submission
 * sent again (after an error) passes and any other post with that token is a replay.
 *
 * In memory with one replica; with several, in Redis (`SET NX PX`), so a replay sent to
 * another replica is refused too. Keys hold no personal data (a token's nonce, a hash).
 */
export interface ClaimStore {
  /**
   * Claims `key` for `value` for `ttlMs`. Resolves with `null` if the key was free (now taken)
   * or already held by the same value, else with the value that holds it.
   */
  claim(key: string, value: string, ttlMs: number): Promise<string | null>
  /** Gives a claim back (the message it was for could not be stored). */
  release(key: string, value: string): Promise<void>
}

/** A claim as it is held: its value, and when it expires (epoch ms). */
type Held = { value: string; expiresAt: number }

/** One replica's claims: each forgotten when it expires, swept once a minute. */
export class MemoryClaimStore implements ClaimStore {
  readonly #claims = new Map<string, Held>()
  readonly #sweep: NodeJS.Timeout
  readonly #maxEntries: number

  /** `maxEntries` bounds what a flood can make it hold: the oldest claims go first. */
  constructor(maxEntries = 100_000) {
    this.#maxEntries = maxEntries
    this.#sweep = setInterval(() => this.#forgetExpired(Date.now()), 60_000)
    this.#sweep.unref()
  }

  async claim(key: string, value: string, ttlMs: number): Promise<string | null> {
    const now = Date.now()
    const held = this.#claims.get(key)
    if (held && held.expiresAt > now) return held.value === value ? null : held.value
    this.hold(key, { value, expiresAt: now + ttlMs })
    this.taken?.(key, { value, expiresAt: now + ttlMs })
    return null
  }

  async release(key: string, value: string): Promise<void> {
    if (this.forget(key, value)) this.released?.(key, value)
  }

  /** Lets go of a claim while it holds `value`; whether it did. */
  protected forget(key: string, value: string): boolean {
    if (this.#claims.get(key)?.value !== value) return false
    this.#claims.delete(key)
    return true
  }

  /** Holds a claim as it is given (a new one, or one read back from a file). */
  protected hold(key: string, held: Held): void {
    if (this.#claims.size >= this.#maxEntries) {
      const oldest = this.#claims.keys().next().value
      if (oldest !== undefined) this.#claims.delete(oldest)
    }
    this.#claims.delete(key) // re-inserted last: the map stays in order of expiry
    this.#claims.set(key, held)
  }

  /** What is held and not expired at `now`, oldest first. */
  protected live(now = Date.now()): [string, Held][] {
    return [...this.#claims].filter(([, { expiresAt }]) => expiresAt > now)
  }

  /** Called when a claim was taken (for a store that keeps them). */
  protected taken?(key: string, held: Held): void

  /** Called when a claim was given back. */
  protected released?(key: string, value: string): void

  /** Called after each sweep, with how many expired claims it forgot. */
  protected swept?(forgotten: number): void

  close(): void {
    clearInterval(this.#sweep)
    this.#claims.clear()
  }

  #forgetExpired(now: number) {
    let forgotten = 0
    for (const [key, { expiresAt }] of this.#claims) {
      if (expiresAt > now) continue
      this.#claims.delete(key)
      forgotten++
    }
    this.swept?.(forgotten)
  }
}

/** The file of `FileClaimStore`, beside the forms' key (`OUTBOX_DIR`). */
export const CLAIMS_FILE = '.form-token-claims'

/**
 * One replica's claims kept across restarts: in memory as `MemoryClaimStore`, and each claim
 * taken or given back appended as a line to a file beside the forms' key, read back at start
 * (expired lines dropped, the file written anew). A replay refused before a restart is refused
 * after it. Lines hold keys and values only: a token's nonce and keyed checksums, some of them
 * of a client's address (the page tokens' budget, page-budget.ts), which the privacy policy
 * keeps no longer than the claim. So the file is written anew, with the live claims alone, at
 * the sweep after a claim expired or was given back (within a minute), and when it holds more
 * than twice the live claims and 1,000 lines.
 */
export class FileClaimStore extends MemoryClaimStore {
  readonly #path: string
  #lines = 0
  /** The line count at which the file is written anew: twice the live claims, and 1,000. */
  #rewriteAt = 1_000
  #writes: Promise<void> = Promise.resolve()
  /** The file still holds claims that expired or were given back. */
  #hasGone = false

  private constructor(path: string, maxEntries?: number) {
    super(maxEntries)
    this.#path = path
  }

  /** The claims kept in `dir`, read back; the file is made if there is none. */
  static async open(dir: string, maxEntries?: number): Promise<FileClaimStore> {
    await mkdir(dir, { recursive: true, mode: 0o700 })
    const store = new FileClaimStore(join(dir, CLAIMS_FILE), maxEntries)
    const text = await readFile(store.#path, 'utf8').catch((error: unknown) => {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return ''
      throw error
    })
    const now = Date.now()
    for (const line of text.split('\n')) {
      const [change, key, value, expiresAt] = line.split('\t')
      if (!key || value === undefined) continue
      if (change === 'c' && Number(expiresAt) > now) {
        store.hold(key, { value, expiresAt: Number(expiresAt) })
      } else if (change === 'r') {
        store.forget(key, value)
      }
    }
    await store.#rewrite()
    return store
  }

  protected override taken(key: string, held: Held): void {
    this.#append(`c\t${key}\t${held.value}\t${held.expiresAt}\n`)
  }

  protected override released(key: string, value: string): void {
    this.#append(`r\t${key}\t${value}\n`)
    this.#hasGone = true
  }

  protected override swept(forgotten: number): void {
    if (forgotten > 0) this.#hasGone = true
    if (!this.#hasGone) return
    this.#writes = this.#writes
      .then(async () => {
        if (this.#hasGone) await this.#rewrite()
      })
      .catch(() => {})
  }

  /** Resolves when every change so far is in the file. */
  flushed(): Promise<void> {
    return this.#writes
  }

  #append(line: string) {
    this.#lines++
    this.#writes = this.#writes
      .then(async () => {
        // The live claims are counted only then, not at every claim.
        if (this.#lines > this.#rewriteAt) await this.#rewrite()
        else await appendFile(this.#path, line, { mode: 0o600 })
      })
      .catch(() => {}) // a claim not kept on disk is still held in memory
  }

  /** The live claims alone, written to a new file that replaces the old one. */
  async #rewrite() {
    // Cleared before the snapshot: a claim that goes while the file is written is written
    // out at the next sweep.
    this.#hasGone = false
    const live = this.live()
    const text = live
      .map(([key, { value, expiresAt }]) => `c\t${key}\t${value}\t${expiresAt}\n`)
      .join('')
    const temporary = `${this.#path}.${process.pid}.tmp`
    try {
      await writeFile(temporary, text, { mode: 0o600 })
      await rename(temporary, this.#path)
    } catch (error) {
      this.#hasGone = true
      throw error
    }
    this.#lines = live.length
    this.#rewriteAt = 2 * live.length + 1_000
  }
}

/** Deletes the key only while it still holds the value given back. */
const RELEASE = `if redis.call('GET', KEYS[1]) == ARGV[1] then return redis.call('DEL', KEYS[1]) end return 0`

/**
 * The replicas' shared claims. Redis unreachable: the claim passes (like the shared rate
 * limit): the other layers still hold, and the message itself then cannot be stored anyway.
 */
export class RedisClaimStore implements ClaimStore {
  readonly #redis: Redis
  readonly #prefix: string

  constructor(redis: Redis, prefix = 'modernwerk:claims:') {
    this.#redis = redis
    this.#prefix = prefix
  }

  async claim(key: string, value: string, ttlMs: number): Promise<string | null> {
    const id = this.#prefix + key
    try {
      if ((await this.#redis.set(id, value, 'PX', ttlMs, 'NX')) === 'OK') return null
      const held = await this.#redis.get(id)
      return held === null || held === value ? null : held
    } catch {
      return null
    }
  }

  async release(key: string, value: string): Promise<void> {
    await this.#redis.eval(RELEASE, 1, this.#prefix + key, value).catch(() => {})
  }
}
