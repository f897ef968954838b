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

/** One replica's claims: each forgotten when it expires, swept once a minute. */
export class MemoryClaimStore implements ClaimStore {
  readonly #claims = new Map<string, { value: string; expiresAt: number }>()
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
    if (this.#claims.size >= this.#maxEntries) {
      const oldest = this.#claims.keys().next().value
      if (oldest !== undefined) this.#claims.delete(oldest)
    }
    this.#claims.delete(key) // re-inserted last: the map stays in order of expiry
    this.#claims.set(key, { value, expiresAt: now + ttlMs })
    return null
  }

  async release(key: string, value: string): Promise<void> {
    if (this.#claims.get(key)?.value === value) this.#claims.delete(key)
  }

  close(): void {
    clearInterval(this.#sweep)
    this.#claims.clear()
  }

  #forgetExpired(now: number) {
    for (const [key, { expiresAt }] of this.#claims) {
      if (expiresAt <= now) this.#claims.delete(key)
    }
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
