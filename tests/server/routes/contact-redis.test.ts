import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import { hasRedisServer, REDIS_SERVER, startRedis } from '#tests/helpers/redis.ts'
import { withToken } from '#tests/helpers/form-token.ts'

const VALID = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  service: 'api',
  message: 'Two replicas, one budget: this message tests the shared limit.',
}

if (!hasRedisServer()) {
  console.warn(
    `Skipping the shared rate-limit tests: no ${REDIS_SERVER} (apt-get install redis-server)`,
  )
}

describe.skipIf(!hasRedisServer())('rate limit shared through Redis (REDIS_URL)', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>
  const apps: FastifyInstance[] = []
  const dirs: string[] = []

  beforeAll(async () => {
    redis = await startRedis()
    for (let replica = 0; replica < 2; replica++) {
      const dir = mkdtempSync(join(tmpdir(), 'outbox-'))
      dirs.push(dir)
      apps.push(
        await buildTestApp({
          REDIS_URL: redis.url,
          OUTBOX_DIR: dir,
          CONTACT_RATE_MAX: '3',
          CONTACT_RATE_WINDOW: '10 minutes',
        }),
      )
    }
  })

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()))
    await redis.dispose()
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })

  it('two app instances share one budget per client IP', async () => {
    const [first, second] = apps as [FastifyInstance, FastifyInstance]
    const send = async (app: FastifyInstance, remoteAddress: string) =>
      app.inject({
        method: 'POST',
        url: '/api/contact',
        remoteAddress,
        payload: await withToken(VALID),
      })
    expect((await send(first, '192.0.2.40')).statusCode).toBe(202)
    expect((await send(second, '192.0.2.40')).statusCode).toBe(202)
    expect((await send(first, '192.0.2.40')).statusCode).toBe(202)
    const limited = await send(second, '192.0.2.40')
    expect(limited.statusCode).toBe(429)
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(500)
    expect((await send(second, '192.0.2.41')).statusCode).toBe(202)
  })
})
