import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Redis } from 'ioredis'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FIRST_SEEN_FILE, settingsFirstSeen } from '#server/lib/settings-first-seen.ts'
import { hasRedisServer, startRedis } from '#tests/helpers/redis.ts'

const FOURTEEN = { CONTACT_RETENTION_DAYS: 14 }

describe('the day changed policy settings were first seen', () => {
  it('one replica: kept beside the outbox, the same day after a restart; a new value, a new day', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'first-seen-'))
    const store = { redis: null, dir }
    expect(await settingsFirstSeen(FOURTEEN, '2026-12-01', store)).toEqual({
      day: '2026-12-01',
      kept: true,
    })
    // Restarted a week later with the same settings: still the first day.
    expect((await settingsFirstSeen(FOURTEEN, '2026-12-08', store)).day).toBe('2026-12-01')
    // The order of the settings does not matter, their values do.
    const two = { LOG_RETENTION_DAYS: 30, CONTACT_RETENTION_DAYS: 14 }
    expect((await settingsFirstSeen(two, '2026-12-09', store)).day).toBe('2026-12-09')
    expect(
      (
        await settingsFirstSeen(
          { CONTACT_RETENTION_DAYS: 14, LOG_RETENTION_DAYS: 30 },
          '2026-12-10',
          store,
        )
      ).day,
    ).toBe('2026-12-09')
    expect((await settingsFirstSeen({ CONTACT_RETENTION_DAYS: 21 }, '2026-12-10', store)).day).toBe(
      '2026-12-10',
    )
    expect(
      Object.values(JSON.parse(readFileSync(join(dir, FIRST_SEEN_FILE), 'utf8')) as object),
    ).toEqual(['2026-12-01', '2026-12-09', '2026-12-10'])
  })

  it('a store that cannot be read gives today, and says it kept nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'first-seen-'))
    writeFileSync(join(dir, FIRST_SEEN_FILE), '{ not json')
    expect(await settingsFirstSeen(FOURTEEN, '2026-12-08', { redis: null, dir })).toEqual({
      day: '2026-12-08',
      kept: false,
    })
  })

  describe.skipIf(!hasRedisServer())('several replicas (Redis)', () => {
    let redis: Awaited<ReturnType<typeof startRedis>>
    let clients: Redis[] = []
    beforeAll(async () => {
      redis = await startRedis()
      clients = [new Redis(redis.url), new Redis(redis.url)]
    })
    afterAll(async () => {
      for (const client of clients) client.disconnect()
      await redis.dispose()
    })

    it('the first replica’s day is every replica’s, whatever day the others start on', async () => {
      const [first, second] = clients
      if (!first || !second) throw new Error('no clients')
      const dir = mkdtempSync(join(tmpdir(), 'first-seen-'))
      expect((await settingsFirstSeen(FOURTEEN, '2026-12-01', { redis: first, dir })).day).toBe(
        '2026-12-01',
      )
      expect(await settingsFirstSeen(FOURTEEN, '2026-12-05', { redis: second, dir })).toEqual({
        day: '2026-12-01',
        kept: true,
      })
    })
  })
})
