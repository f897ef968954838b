import { createHash, randomBytes, randomUUID } from 'node:crypto'
import { once } from 'node:events'
import { link, mkdir, readFile, rm } from 'node:fs/promises'
import { join } from 'node:path'
import type { Redis } from 'ioredis'
import { syncDirectory, writeDurably } from '../../lib/durable-file.ts'
import { withinTime } from '../../lib/within-time.ts'

/**
 * The keys the contact forms' tokens and proof-of-work challenges are signed with
 * (docs/contact.md#spam-defence; docs/decisions/form-token-keys.md). A form a visitor opened before
 * a restart, a deploy or a key rotation must still be accepted after it: so the key outlives the
 * process, and a rotated key stays good for a token's lifetime.
 *
 * - `CONTACT_TOKEN_SECRET` set: that key signs; `CONTACT_TOKEN_PREVIOUS_SECRETS` still verify.
 * - Unset, one replica: a key made once and kept beside the file outbox, owner-only
 *   (`STORED_KEY_FILE` in `OUTBOX_DIR`).
 * - Unset, `REDIS_URL` set: a key made once in Redis (`SET NX`), so every replica signs with
 *   the same one without configuration.
 *
 * Every token and challenge names its key by id (`keyId`), so a check tries that key only,
 * and one no key here can verify is told apart from a forged one: it is answered like an
 * expired token (a new one, the text kept), never dropped.
 */
export type TokenKey = { id: string; secret: Buffer }

/** Eight characters of a hash of the key: names it, reveals nothing about it. */
function keyId(secret: Buffer): string {
  return createHash('sha256')
    .update('form-token-key-id\n')
    .update(secret)
    .digest('base64url')
    .slice(0, 8)
}

export function tokenKey(secret: Buffer): TokenKey {
  return { id: keyId(secret), secret }
}

/** The file beside the file outbox that keeps the key made when none is configured. */
export const STORED_KEY_FILE = '.form-token-key'
/** The Redis key of the replicas' shared key. */
export const REDIS_KEY = 'modernwerk:form-token-key'

/** A made key: 32 random bytes, kept as base64 text (a file or a Redis string). */
const KEY_BYTES = 32
const STORED_KEY = /^[A-Za-z0-9+/]{43}=$/

function parseStoredKey(text: string): Buffer | null {
  const trimmed = text.trim()
  return STORED_KEY.test(trimmed) ? Buffer.from(trimmed, 'base64') : null
}

/**
 * The key kept in `dir`: read if there, else made and written once. The key is written whole
 * under a name of its own, then hard-linked to the file's name: the link either makes the
 * file, complete, or fails because another process made it first, so two processes starting on
 * one folder agree on the first one's key, and neither ever reads a file still being written
 * (as it could between an exclusive create and its write). An unreadable or damaged file is an
 * error (replacing it would void every open form silently).
 */
export async function storedFileKey(dir: string): Promise<Buffer> {
  const path = join(dir, STORED_KEY_FILE)
  const existing = await readFile(path, 'utf8').catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null
    throw error
  })
  if (existing !== null) {
    const key = parseStoredKey(existing)
    if (!key) throw new Error(`${path} does not hold a form-token key; delete it to make a new one`)
    return key
  }
  const key = randomBytes(KEY_BYTES)
  // The first start on a new data folder comes before the outbox makes it: made here the same
  // way (owner-only).
  await mkdir(dir, { recursive: true, mode: 0o700 })
  // `.tmp`: the outbox removes such a file only once a crash has left it for minutes.
  const draft = `${path}.${randomUUID()}.tmp`
  try {
    await writeDurably(draft, `${key.toString('base64')}\n`)
    await link(draft, path)
    await syncDirectory(dir)
    return key
  } catch (error) {
    // Another process made it first: its key is the one.
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return await storedFileKey(dir)
    throw error
  } finally {
    await rm(draft, { force: true })
  }
}

/**
 * The replicas' shared key: made by the first replica (`SET NX`), read by every other. The
 * site's connection to Redis has no offline queue: at start it is waited for (an error while
 * connecting ends the wait).
 */
export async function storedRedisKey(redis: Redis, timeoutMs = 2_000): Promise<Buffer> {
  const fresh = randomBytes(KEY_BYTES).toString('base64')
  const work = (async () => {
    if (redis.status !== 'ready') await once(redis, 'ready')
    await redis.set(REDIS_KEY, fresh, 'NX')
    const held = await redis.get(REDIS_KEY)
    const key = held === null ? null : parseStoredKey(held)
    if (!key) throw new Error(`Redis key ${REDIS_KEY} does not hold a form-token key`)
    return key
  })()
  return withinTime(work, timeoutMs, 'Redis did not answer for the form-token key in time')
}

/**
 * The keys of this process: one that signs, the ones that still verify. The signing key can
 * change once (`adopt`): a replica that started while Redis was away signs with a key of its
 * own until it reads the shared one, which then signs, and its own still verifies.
 */
export class TokenKeys {
  #current: TokenKey
  #verifying: Map<string, TokenKey>

  constructor(current: Buffer, previous: readonly Buffer[] = []) {
    this.#current = tokenKey(current)
    this.#verifying = new Map(
      [this.#current, ...previous.map(tokenKey)].map((key) => [key.id, key]),
    )
  }

  get current(): TokenKey {
    return this.#current
  }

  /** The key a token or challenge names, if this process has it. */
  byId(id: string): TokenKey | undefined {
    return this.#verifying.get(id)
  }

  /** Every key that verifies, the signing one first (tokens made before key ids existed). */
  all(): TokenKey[] {
    return [this.#current, ...[...this.#verifying.values()].filter((key) => key !== this.#current)]
  }

  /** Signs with `secret` from now on; the key that signed until now still verifies. */
  adopt(secret: Buffer) {
    const key = tokenKey(secret)
    if (key.id === this.#current.id) return
    this.#current = key
    this.#verifying.set(key.id, key)
  }
}

export type LoadTokenKeysOptions = {
  /** `CONTACT_TOKEN_SECRET`: the configured key, if any. */
  secret?: string
  /** `CONTACT_TOKEN_PREVIOUS_SECRETS`: keys that verify but no longer sign. */
  previous?: readonly string[]
  /** Where a made key is kept without Redis: the file outbox's folder. */
  dir: string
  redis: Redis | null
  log: {
    info: (details: object, message: string) => void
    warn: (details: object, message: string) => void
    error: (details: object, message: string) => void
  }
  /** How often a replica that could not reach Redis at start asks again for the shared key. */
  retryMs?: number
}

/**
 * This process's keys: the configured one, else the stored one (Redis, else the outbox's
 * folder). A store that cannot be used never stops the site: the process signs with a key of
 * its own, which only it can verify (other replicas, or this one after a restart, then answer
 * its forms like expired ones, with a new token), says so in the log, and with Redis keeps
 * asking for the shared key, which it adopts when it comes.
 */
export async function loadTokenKeys({
  secret,
  previous = [],
  dir,
  redis,
  log,
  retryMs = 30_000,
}: LoadTokenKeysOptions): Promise<{ keys: TokenKeys; stop: () => void }> {
  const previousKeys = previous.map((text) => Buffer.from(text))
  const idle = { stop: () => {} }
  if (secret) return { keys: new TokenKeys(Buffer.from(secret), previousKeys), ...idle }

  if (!redis) {
    try {
      const keys = new TokenKeys(await storedFileKey(dir), previousKeys)
      log.info(
        { file: join(dir, STORED_KEY_FILE) },
        'contact forms signed with the key kept beside the outbox',
      )
      return { keys, ...idle }
    } catch (error) {
      log.error(
        { err: error, dir },
        "the contact forms' key cannot be kept beside the outbox: signed with a key of this process, so forms open at a restart are answered as expired",
      )
      return { keys: new TokenKeys(randomBytes(KEY_BYTES), previousKeys), ...idle }
    }
  }

  try {
    return { keys: new TokenKeys(await storedRedisKey(redis), previousKeys), ...idle }
  } catch (error) {
    log.warn(
      { err: error },
      "the contact forms' shared key is not readable from Redis yet: signed with a key of this process until it is",
    )
  }
  const keys = new TokenKeys(randomBytes(KEY_BYTES), previousKeys)
  let timer: NodeJS.Timeout | undefined
  let isStopped = false
  const retry = () => {
    timer = setTimeout(() => {
      storedRedisKey(redis).then(
        (key) => {
          keys.adopt(key)
          log.info({}, 'contact forms signed with the key shared through Redis')
        },
        () => {
          if (!isStopped) retry()
        },
      )
    }, retryMs)
    timer.unref()
  }
  retry()
  return {
    keys,
    stop() {
      isStopped = true
      clearTimeout(timer)
    },
  }
}
