import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import {
  CLAIMS_FILE,
  FileClaimStore,
  MemoryClaimStore,
  RedisClaimStore,
  type ClaimStore,
} from '#server/services/spam/claims.ts'
import { eventually } from '#tests/helpers/eventually.ts'
import { hasRedisServer, REDIS_SERVER, startRedis } from '#tests/helpers/redis.ts'

/**
 * "Accepted once" in both stores (docs/contact.md#spam-defence): the claim of a token holds for its
 * value until it expires, the same value passes again, and only that value gives it back.
 */
function behavesAsClaims(store: () => ClaimStore) {
  it('holds a key for the value that claimed it, and lets the same value pass again', async () => {
    const key = `token:${crypto.randomUUID()}`
    expect(await store().claim(key, 'submission-a', 60_000)).toBeNull()
    expect(await store().claim(key, 'submission-a', 60_000)).toBeNull()
    expect(await store().claim(key, 'submission-b', 60_000)).toBe('submission-a')
  })

  it('forgets a claim when it expires', async () => {
    const key = `token:${crypto.randomUUID()}`
    expect(await store().claim(key, 'first', 300)).toBeNull()
    await eventually(async () => (await store().claim(key, 'second', 60_000)) === null, 5_000)
    expect(await store().claim(key, 'third', 60_000)).toBe('second')
  })

  it('is given back only by the value that holds it', async () => {
    const key = `token:${crypto.randomUUID()}`
    expect(await store().claim(key, 'kept', 60_000)).toBeNull()
    await store().release(key, 'other')
    expect(await store().claim(key, 'other', 60_000)).toBe('kept')
    await store().release(key, 'kept')
    expect(await store().claim(key, 'other', 60_000)).toBeNull()
  })
}

describe('in memory (one replica)', () => {
  const memory = new MemoryClaimStore()
  afterAll(() => memory.close())
  behavesAsClaims(() => memory)

  it('holds at most its bound, forgetting the oldest claims first', async () => {
    const small = new MemoryClaimStore(2)
    await small.claim('a', '1', 60_000)
    await small.claim('b', '1', 60_000)
    await small.claim('c', '1', 60_000)
    expect(await small.claim('a', '2', 60_000)).toBeNull()
    expect(await small.claim('c', '2', 60_000)).toBe('1')
    small.close()
  })
})

describe('in memory and a file (one replica, across restarts)', () => {
  const dir = mkdtempSync(join(tmpdir(), 'modernwerk-claims-'))
  let file: FileClaimStore
  beforeAll(async () => {
    file = await FileClaimStore.open(dir)
  })
  afterAll(() => {
    file.close()
    rmSync(dir, { recursive: true, force: true })
  })
  behavesAsClaims(() => file)

  it('keeps what was claimed and given back across a restart, and drops what expired', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'modernwerk-claims-'))
    const before = await FileClaimStore.open(folder)
    await before.claim('token:used', 'submission-a', 60_000)
    await before.claim('token:given-back', 'submission-b', 60_000)
    await before.release('token:given-back', 'submission-b')
    await before.claim('token:short', 'submission-c', 200)
    await before.flushed()
    before.close()
    await new Promise((resolve) => setTimeout(resolve, 300))

    const after = await FileClaimStore.open(folder)
    expect(await after.claim('token:used', 'submission-d', 60_000)).toBe('submission-a')
    expect(await after.claim('token:given-back', 'submission-e', 60_000)).toBeNull()
    expect(await after.claim('token:short', 'submission-f', 60_000)).toBeNull()
    await after.flushed()
    after.close()
    // Written anew at the start: the live claims only, no personal data (keys and values).
    const lines = readFileSync(join(folder, CLAIMS_FILE), 'utf8').trim().split('\n')
    expect(lines.map((line) => line.split('\t').slice(0, 3).join(' '))).toEqual([
      'c token:used submission-a',
      'c token:given-back submission-e',
      'c token:short submission-f',
    ])
    rmSync(folder, { recursive: true, force: true })
  })

  it('keeps no expired or given-back claim on disk past the next sweep, a minute later at most', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'modernwerk-claims-'))
    vi.useFakeTimers({ toFake: ['setInterval', 'Date'] })
    try {
      const store = await FileClaimStore.open(folder)
      // An address's unit of the page tokens' budget (a keyed checksum), for its window.
      await store.claim('page-address:checksum:0', 'submission-a', 15 * 60_000)
      await store.claim('token:given-back', 'submission-b', 6 * 3_600_000)
      await store.release('token:given-back', 'submission-b')
      await store.claim('token:live', 'submission-c', 6 * 3_600_000)
      await store.flushed()
      const keys = () =>
        readFileSync(join(folder, CLAIMS_FILE), 'utf8')
          .trim()
          .split('\n')
          .map((line) => line.split('\t').slice(0, 2).join(' '))
      expect(keys()).toContain('c page-address:checksum:0')
      // The window is over; the sweep after it writes the file anew.
      await vi.advanceTimersByTimeAsync(16 * 60_000)
      await store.flushed()
      expect(keys()).toEqual(['c token:live'])
      store.close()
    } finally {
      vi.useRealTimers()
      rmSync(folder, { recursive: true, force: true })
    }
  })
})

if (!hasRedisServer()) {
  console.warn(`Skipping the Redis claims: no ${REDIS_SERVER} (apt-get install redis-server)`)
}

describe.skipIf(!hasRedisServer())('in Redis (several replicas)', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>
  let client: Redis
  let store: RedisClaimStore

  beforeAll(async () => {
    redis = await startRedis()
    client = new Redis(redis.url)
    store = new RedisClaimStore(client)
  })
  afterAll(async () => {
    client.disconnect()
    await redis.dispose()
  })

  behavesAsClaims(() => store)

  it('lets a claim pass while Redis is unreachable (the other layers still hold)', async () => {
    const offline = new Redis('redis://127.0.0.1:1', {
      lazyConnect: true,
      enableOfflineQueue: false,
      maxRetriesPerRequest: 0,
    })
    offline.on('error', () => {})
    const unreachable = new RedisClaimStore(offline)
    expect(await unreachable.claim('token:x', 'a', 60_000)).toBeNull()
    expect(await unreachable.claim('token:x', 'b', 60_000)).toBeNull()
    offline.disconnect()
  })
})
