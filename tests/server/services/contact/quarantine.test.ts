import { mkdtempSync, readdirSync, readFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import {
  FileQuarantine,
  quarantineEntry,
  RedisQuarantine,
  type Quarantine,
  type QuarantineLimits,
} from '#server/services/contact/quarantine.ts'
import type { ContactMessage } from '#shared/contact-schema.ts'
import { hasRedisServer, startRedis } from '#tests/helpers/redis.ts'

/**
 * The quarantine's two stores (docs/contact.md#quarantine), each against the real thing: a folder
 * on disk, a redis-server. The same behaviour from both: bounded in entries and bytes with the
 * oldest going first, retention by receipt time, erasure by sender.
 */

const message = (email: string, text = 'Wir möchten unsere Server nach Frankfurt verlegen.') =>
  ({
    name: 'Zażółć Gęślą',
    email,
    service: 'cloud',
    subject: 'Umzug',
    message: text,
    locale: 'pl',
  }) as ContactMessage

const entryAt = (minutesAgo: number, email = 'a@example.pl', text?: string) =>
  quarantineEntry(
    'tooFast',
    'contact',
    message(email, text),
    new Date(Date.now() - minutesAgo * 60_000),
  )

type Store = { quarantine: Quarantine; raw: () => Promise<string> }

const stores: [string, boolean, (limits: QuarantineLimits) => Promise<Store>][] = [
  [
    'folder',
    true,
    async (limits) => {
      const dir = mkdtempSync(join(tmpdir(), 'modernwerk-quarantine-'))
      const quarantine = new FileQuarantine(dir, limits)
      await quarantine.init()
      return {
        quarantine,
        raw: async () =>
          readdirSync(dir)
            .map((name) => readFileSync(join(dir, name), 'utf8'))
            .join('\n'),
      }
    },
  ],
  [
    'Redis',
    hasRedisServer(),
    async (limits) => {
      const client = new Redis(redisUrl)
      clients.push(client)
      await client.flushall()
      return {
        quarantine: new RedisQuarantine(client, limits),
        raw: async () => JSON.stringify(await client.hgetall('modernwerk:quarantine:entries')),
      }
    },
  ],
]

let redis: Awaited<ReturnType<typeof startRedis>> | null = null
let redisUrl = ''
const clients: Redis[] = []

beforeAll(async () => {
  if (hasRedisServer()) {
    redis = await startRedis()
    redisUrl = redis.url
  }
})
afterAll(async () => {
  for (const client of clients) client.disconnect()
  await redis?.dispose()
})

describe.each(stores)('the quarantine in a %s', (_name, isAvailable, open) => {
  const roomy = { maxEntries: 1_000, maxBytes: 16 * 1_048_576 }
  let store: Store

  beforeEach(async (context) => {
    if (!isAvailable) context.skip('redis-server is not installed')
  })

  it('keeps an entry whole and lists it without its text, oldest first', async () => {
    store = await open(roomy)
    const older = entryAt(10)
    const newer = entryAt(1, 'b@example.pl')
    await store.quarantine.put(newer)
    await store.quarantine.put(older)
    const listed = await store.quarantine.list()
    expect(listed.map(({ id }) => id)).toEqual([older.id, newer.id])
    expect(listed[0]).toMatchObject({ reason: 'tooFast', form: 'contact', locale: 'pl' })
    expect(listed[0]?.bytes).toBe(Buffer.byteLength(JSON.stringify(older)))
    expect(await store.quarantine.get(newer.id)).toEqual(newer)
    expect(await store.quarantine.stats()).toEqual({
      entries: 2,
      bytes: Buffer.byteLength(JSON.stringify(older)) + Buffer.byteLength(JSON.stringify(newer)),
    })
    expect(await store.quarantine.remove(older.id)).toBe(true)
    expect(await store.quarantine.remove(older.id)).toBe(false)
    expect(await store.quarantine.get(older.id)).toBeNull()
    expect((await store.quarantine.stats()).entries).toBe(1)
  })

  it('holds at most maxEntries: the oldest go first, counted', async () => {
    store = await open({ ...roomy, maxEntries: 10 })
    const entries = Array.from({ length: 25 }, (_, index) => entryAt(100 - index))
    let evicted = 0
    for (const entry of entries) evicted += await store.quarantine.put(entry)
    expect(evicted).toBe(15)
    expect((await store.quarantine.list()).map(({ id }) => id)).toEqual(
      entries.slice(15).map(({ id }) => id),
    )
    expect((await store.quarantine.stats()).entries).toBe(10)
  })

  it('holds at most maxBytes: the oldest go first', async () => {
    const big = 'Ä'.repeat(4_000)
    const size = Buffer.byteLength(JSON.stringify(entryAt(0, 'a@example.pl', big)))
    store = await open({ ...roomy, maxBytes: size * 3 + 10 })
    const entries = Array.from({ length: 6 }, (_, index) =>
      entryAt(60 - index, 'a@example.pl', big),
    )
    let evicted = 0
    for (const entry of entries) evicted += await store.quarantine.put(entry)
    expect(evicted).toBe(3)
    const stats = await store.quarantine.stats()
    expect(stats.entries).toBe(3)
    expect(stats.bytes).toBeLessThanOrEqual(size * 3 + 10)
  })

  it('deletes what was received before the retention cutoff, and nothing newer', async () => {
    store = await open(roomy)
    const old = entryAt(8 * 24 * 60)
    const recent = entryAt(60)
    await store.quarantine.put(old)
    await store.quarantine.put(recent)
    const removed = await store.quarantine.purgeReceivedBefore(Date.now() - 7 * 86_400_000)
    expect(removed.map(({ id }) => id)).toEqual([old.id])
    expect((await store.quarantine.list()).map(({ id }) => id)).toEqual([recent.id])
    expect(await store.raw()).not.toContain(old.id)
  })

  it('erases one sender’s entries on request, whatever the case of the address', async () => {
    store = await open(roomy)
    await store.quarantine.put(entryAt(3, 'Ada@Example.com', 'First text of the sender.'))
    await store.quarantine.put(entryAt(2, 'grace@example.com'))
    await store.quarantine.put(entryAt(1, 'ada@example.com', 'Second text of the sender.'))
    expect(await store.quarantine.eraseSender('ADA@example.com')).toBe(2)
    const left = await store.quarantine.list()
    expect(left.map(({ entry }) => entry.message.email)).toEqual(['grace@example.com'])
    const raw = await store.raw()
    expect(raw).not.toMatch(/ada@example\.com/i)
    expect(raw).not.toContain('text of the sender')
  })
})
