import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import type { AppOverrides } from '#server/app.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import { eventually } from '#tests/helpers/eventually.ts'
import { hasRedisServer, REDIS_SERVER, startRedis } from '#tests/helpers/redis.ts'
import { startSmtpServer } from '#tests/helpers/smtp.ts'
import { withToken } from '#tests/helpers/form-token.ts'

/** One sender's message is delivered, the other's erased: neither may stay on Redis's disk. */
const DELIVERED = {
  name: 'Dorota Wiśniewska',
  email: 'dorota.wisniewska@example.pl',
  service: 'cloud',
  message: 'Szukamy partnera do przeniesienia serwerów pocztowych do chmury.',
  locale: 'pl',
} as const
const ERASED = {
  name: 'Egon Hartmann',
  email: 'egon.hartmann@example.de',
  service: 'other',
  message: 'Bitte löschen Sie meine Anfrage zur Lagerverwaltung wieder.',
  locale: 'de',
} as const
const CLIENT_IP = '198.51.100.23'

/** What must not outlive the deletions, as it would appear in Redis's files. */
const TRACES = [DELIVERED.email, DELIVERED.message, ERASED.email, ERASED.message, CLIENT_IP]

/**
 * Every file under Redis's data folder (appendonlydir/* included), read bytewise. A rewrite
 * in progress renames its temporary files away between listing and reading: a file gone by
 * then holds nothing any more.
 */
function filesUnder(dir: string): Buffer[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .flatMap((entry) => {
      try {
        return [readFileSync(join(entry.parentPath, entry.name))]
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
        throw error
      }
    })
}

const tracesOnDisk = (dir: string) =>
  TRACES.filter((trace) => filesUnder(dir).some((file) => file.includes(Buffer.from(trace))))

if (!hasRedisServer()) {
  console.warn(`Skipping the Redis disk test: no ${REDIS_SERVER} (apt-get install redis-server)`)
}

describe.skipIf(!hasRedisServer())('deleted messages on Redis’s disk', { timeout: 60_000 }, () => {
  let redis: Awaited<ReturnType<typeof startRedis>>
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>
  const apps: FastifyInstance[] = []

  beforeAll(async () => {
    // As the chart runs it: --appendonly yes --appendfsync always --save ''.
    redis = await startRedis({ durable: true })
    smtp = await startSmtpServer()
  })
  // Each test's replicas stop with it: one left delivering would take the next test's message.
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()))
  })
  afterAll(async () => {
    await smtp.stop()
    await redis.dispose()
  })

  async function replica(env: Record<string, string>, overrides: AppOverrides = {}) {
    const app = await buildTestApp(
      {
        REDIS_URL: redis.url,
        CONTACT_RATE_WINDOW: '1 second',
        // No rewrite while the test sets the scene (a busy machine may take seconds for it):
        // the interval's, and the one after the start only long after the test.
        REDIS_AOF_REWRITE_INTERVAL: '1 hour',
        ...env,
      },
      overrides,
    )
    apps.push(app)
    return app
  }

  const post = async (app: FastifyInstance, payload: object) =>
    app.inject({
      method: 'POST',
      url: '/api/contact',
      remoteAddress: CLIENT_IP,
      payload: await withToken(payload),
    })

  it('leave it within REDIS_AOF_REWRITE_INTERVAL: delivered, erased, rate-limit key expired', async () => {
    // Not delivered (no SMTP here): erased on request, as `contact:erase` does.
    const holding = await replica({})
    expect((await post(holding, ERASED)).statusCode).toBe(202)
    const queue = holding.contact.queue
    if (!queue) throw new Error('the app has no Redis queue')
    expect(await queue.eraseSender(ERASED.email)).toEqual({ erased: 1, busy: 0 })

    // Delivered, then reduced to its record.
    const delivering = await replica({ SMTP_URL: smtp.url })
    const { id } = (await post(delivering, DELIVERED)).json<{ id: string }>()
    await eventually(() => smtp.received.length === 1)
    await eventually(async () => {
      const job = await queue.queue.getJob(id)
      return job !== undefined && !('message' in job.data)
    })

    // Gone from Redis's memory, still in its append-only file: the search finds them there.
    expect(tracesOnDisk(redis.dir)).toEqual(TRACES)
    await replica({ REDIS_AOF_REWRITE_INTERVAL: '2 seconds' })
    await eventually(() => tracesOnDisk(redis.dir).length === 0, 20_000)
    // The record of the delivered message is still there (the files are read, not empty).
    expect(filesUnder(redis.dir).some((file) => file.includes(Buffer.from(id)))).toBe(true)
  })

  /** One sender's message, taken in and erased on request: on disk until the next rewrite. */
  async function erasedOnDisk(app: FastifyInstance) {
    expect((await post(app, ERASED)).statusCode).toBe(202)
    const queue = app.contact.queue
    if (!queue) throw new Error('the app has no Redis queue')
    expect(await queue.eraseSender(ERASED.email)).toEqual({ erased: 1, busy: 0 })
    const erased: string[] = [ERASED.email, ERASED.message]
    const onDisk = () => tracesOnDisk(redis.dir).filter((trace) => erased.includes(trace))
    expect(onDisk()).toEqual(erased)
    return onDisk
  }

  it('leave it when a pod stops, however soon after its start', async () => {
    const app = await replica({})
    const onDisk = await erasedOnDisk(app)
    await apps.splice(apps.indexOf(app), 1)[0]?.close()
    await eventually(() => onDisk().length === 0, 20_000)
  })

  it('leave it soon after a pod starts, long before the interval', async () => {
    const onDisk = await erasedOnDisk(await replica({}))
    const started = await replica({}, { firstDiskRewriteMs: 500 })
    await eventually(() => onDisk().length === 0, 20_000)
    // Counted once the pod has seen Redis finish (it polls Redis's state).
    const metrics = async () => (await started.inject({ method: 'GET', url: '/metrics' })).body
    const rewritten = /^contact_queue_disk_rewrites_total\{result="rewritten"\} 1$/m
    await eventually(async () => rewritten.test(await metrics()), 20_000)
    expect(await metrics()).toMatch(/^contact_queue_disk_rewrites_total\{result="failed"\} 0$/m)
  })
})
