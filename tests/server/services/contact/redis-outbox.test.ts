import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Queue, Worker } from 'bullmq'
import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { durabilityProblems, checkRedisDurability } from '#server/services/contact/redis-config.ts'
import { QUEUE_NAME, QUEUE_PREFIX } from '#server/services/contact/redis-outbox.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import {
  emptyContactQueue,
  hasRedisServer,
  REDIS_SERVER,
  startRedis,
} from '#tests/helpers/redis.ts'
import { eventually } from '#tests/helpers/eventually.ts'
import { startSmtpServer } from '#tests/helpers/smtp.ts'
import { withToken } from '#tests/helpers/form-token.ts'

const VALID = {
  name: 'Jan Kowalski',
  email: 'jan@example.pl',
  service: 'cloud',
  message: 'Prosimy o ofertę migracji naszych serwerów do Niemiec.',
  locale: 'pl',
}

describe('Redis durability settings', () => {
  it('names every setting that makes an acknowledged message losable or keeps deleted data on disk', () => {
    expect(
      durabilityProblems({
        appendonly: 'yes',
        appendfsync: 'always',
        'maxmemory-policy': 'noeviction',
        save: '',
      }),
    ).toEqual([])
    const problems = durabilityProblems({
      appendonly: 'no',
      appendfsync: 'everysec',
      'maxmemory-policy': 'allkeys-lru',
      // Redis's default: snapshots beside the AOF keep deleted data until the next one.
      save: '3600 1 300 100 60 10000',
    })
    expect(problems).toHaveLength(3)
    expect(problems[0]).toContain('appendonly')
    expect(problems[1]).toContain('maxmemory-policy')
    expect(problems[2]).toContain('save')
    expect(
      durabilityProblems({
        appendonly: 'yes',
        appendfsync: 'everysec',
        'maxmemory-policy': 'noeviction',
      }),
    ).toEqual([expect.stringContaining('appendfsync')])
  })
})

if (!hasRedisServer()) {
  console.warn(`Skipping the Redis outbox tests: no ${REDIS_SERVER} (apt-get install redis-server)`)
}

// Waits for retries whose delays double while SMTP is down: generous bounds and timeout, so a
// busy machine (CI's two cores shared with other jobs) only makes the tests slower.
describe.skipIf(!hasRedisServer())(
  'contact messages through the Redis queue (REDIS_URL)',
  { timeout: 60_000 },
  () => {
    let redis: Awaited<ReturnType<typeof startRedis>>
    let smtp: Awaited<ReturnType<typeof startSmtpServer>>
    const apps: FastifyInstance[] = []
    const dirs: string[] = []

    function outboxDir() {
      const dir = mkdtempSync(join(tmpdir(), 'outbox-'))
      dirs.push(dir)
      return dir
    }

    async function replica(env: Record<string, string> = {}) {
      const app = await buildTestApp(
        {
          REDIS_URL: redis.url,
          SMTP_URL: smtp.url,
          MAIL_FROM: 'Website <website@modernwerk.example>',
          MAIL_TO: 'sales@modernwerk.example',
          OUTBOX_DIR: outboxDir(),
          CONTACT_RATE_MAX: '10000',
          ...env,
        },
        // The default job lock (10 s), not a short one: a test process starved for a few
        // seconds must not lose a delivery's lock and have it sent again (a duplicate lead).
        // Taking over the job of a replica that died is tested in tests/replicas.
        { firstRetryMs: 200 },
      )
      apps.push(app)
      return app
    }

    const post = async (app: FastifyInstance, payload: object) =>
      app.inject({ method: 'POST', url: '/api/contact', payload: await withToken(payload) })

    beforeAll(async () => {
      redis = await startRedis({ durable: true })
      smtp = await startSmtpServer()
    })

    afterEach(async () => {
      await Promise.all(apps.splice(0).map((app) => app.close()))
      await emptyContactQueue(redis.url)
      smtp.received.length = 0
    }, 30_000)

    afterAll(async () => {
      await smtp.stop()
      await redis.dispose()
      for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
    })

    it('two replicas enqueue and deliver: every message arrives once, with a Message-ID of its id', async () => {
      const [first, second] = [await replica(), await replica()]
      const ids: string[] = []
      for (let index = 0; index < 30; index++) {
        const response = await post(index % 2 ? first : second, {
          ...VALID,
          message: `${VALID.message} (${index})`,
        })
        expect(response.statusCode).toBe(202)
        ids.push(response.json<{ id: string }>().id)
      }
      await eventually(() => smtp.received.length >= ids.length)
      await new Promise((resolve) => setTimeout(resolve, 300)) // no late duplicates
      const messageIds = smtp.received.map(({ mail }) => mail.messageId)
      expect(messageIds.sort()).toEqual(ids.map((id) => `<${id}@modernwerk.example>`).sort())
      const [mail] = smtp.received
      expect(mail?.mail.headers.get('x-contact-id')).toBe(mail?.mail.messageId?.slice(1, 37))
    })

    it('a submission sent again with its id is one lead, not two', async () => {
      const app = await replica()
      const id = crypto.randomUUID()
      expect((await post(app, { ...VALID, id })).json()).toEqual({ status: 'accepted', id })
      await eventually(() => smtp.received.length === 1)
      expect((await post(app, { ...VALID, id })).statusCode).toBe(202)
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(smtp.received).toHaveLength(1)
      // An id that is not a UUID is refused, not stored under another id.
      expect((await post(app, { ...VALID, id: 'not-a-uuid' })).statusCode).toBe(400)
    })

    it('a replica that stops while the relay has a lead waits for its late answer: the job is done, no replica sends it again', async () => {
      // A relay that answers the end of DATA 7 s late (RFC 5321 allows it 10 minutes).
      smtp.answerAfter(7_000)
      try {
        // The only replica takes the lead up; a second starts while the relay has it, and the
        // first stops, as in a rollout.
        const stopping = await replica()
        const { id } = (await post(stopping, VALID)).json<{ id: string }>()
        await eventually(() => smtp.received.length === 1)
        const staying = await replica()
        apps.splice(apps.indexOf(stopping), 1)
        await stopping.close()
        expect(await staying.contact.queue?.queue.getJobState(id)).toBe('completed')
        // Nothing left for the replica that stays to take over: still one copy a while later.
        await new Promise((resolve) => setTimeout(resolve, 1_000))
        expect(smtp.received).toHaveLength(1)
        expect(smtp.received[0]?.mail.headers.get('x-contact-id')).toBe(id)
      } finally {
        smtp.answerAfter(0)
      }
    })

    it('keeps accepting while SMTP is down and delivers everything when it is back', async () => {
      await smtp.stop()
      try {
        const app = await replica()
        for (let index = 0; index < 5; index++) {
          expect((await post(app, VALID)).statusCode).toBe(202)
        }
        // At least 0.8 s of waiting (the oldest message's age below), and attempts that failed:
        // each message's first, however late a busy machine makes them.
        await new Promise((resolve) => setTimeout(resolve, 800))
        await eventually(async () => {
          const body = (await app.inject({ method: 'GET', url: '/metrics' })).body
          const failed = /^contact_deliveries_total\{result="failed"\} (\d+)/m.exec(body)?.[1]
          return Number(failed ?? 0) >= 5
        })
        const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body
        const queued = [...metrics.matchAll(/contact_queue_jobs\{state="(\w+)"\} (\d+)/g)]
        const waitingOrRetrying = queued
          .filter(([, state]) => state !== 'failed')
          .reduce((sum, [, , count]) => sum + Number(count), 0)
        expect(waitingOrRetrying).toBe(5)
        expect(metrics).toContain('contact_queue_jobs{state="failed"} 0')
        expect(metrics).toMatch(/contact_deliveries_total\{result="failed"\} [1-9]/)
        expect(metrics).toContain('contact_delivery_configured 1')
        // The same gauge as with the file outbox: the oldest message's wait, rising.
        const oldestAge = async () => {
          const body = (await app.inject({ method: 'GET', url: '/metrics' })).body
          return Number(/^contact_oldest_undelivered_age_seconds (\S+)$/m.exec(body)?.[1])
        }
        const first = await oldestAge()
        await new Promise((resolve) => setTimeout(resolve, 1_000))
        expect(first).toBeGreaterThan(0.5)
        expect((await oldestAge()) - first).toBeGreaterThan(0.9)
      } finally {
        await smtp.start()
      }
      await eventually(() => smtp.received.length === 5, 30_000)
    })

    it('with Redis unreachable: a quick 503, while pages and readiness stay up', async () => {
      const app = await replica()
      await redis.stop()
      try {
        const started = Date.now()
        const response = await post(app, VALID)
        console.log(
          `contact POST with Redis down answered ${response.statusCode} in ${Date.now() - started} ms`,
        )
        expect(response.statusCode).toBe(503)
        expect(response.json()).toEqual({ status: 'error' })
        expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200)
        expect((await app.inject({ method: 'GET', url: '/de/contact' })).statusCode).toBe(200)
      } finally {
        await redis.start()
      }
    })

    it('moves what waits in the outbox folder into the queue when Redis is switched on', async () => {
      const dir = outboxDir()
      const single = await buildTestApp({ OUTBOX_DIR: dir }) // no SMTP: the folder keeps them
      for (let index = 0; index < 3; index++) {
        expect((await post(single, VALID)).statusCode).toBe(202)
      }
      expect(await single.contact.outbox.size()).toBe(3)
      await single.close()

      const app = await replica({ OUTBOX_DIR: dir })
      await eventually(() => smtp.received.length === 3)
      expect(await app.contact.outbox.size()).toBe(0)
    })

    it('an operator can send failed jobs again with one command', async () => {
      // A job that ended in `failed` (the app never gives up by itself: here a job added with
      // a single attempt while SMTP was down stands in for it).
      const queue = new Queue(QUEUE_NAME, { connection: { url: redis.url }, prefix: QUEUE_PREFIX })
      const failing = new Worker(QUEUE_NAME, () => Promise.reject(new Error('SMTP down')), {
        connection: { url: redis.url, maxRetriesPerRequest: null },
        prefix: QUEUE_PREFIX,
      })
      const id = crypto.randomUUID()
      await queue.add(
        'message',
        { id, receivedAt: new Date().toISOString(), message: { ...VALID, locale: 'pl' } },
        { jobId: id, attempts: 1 },
      )
      await eventually(async () => (await queue.getJobCountByTypes('failed')) === 1)
      await failing.close()
      await queue.close()

      const app = await replica()
      expect((await app.inject({ method: 'GET', url: '/metrics' })).body).toContain(
        'contact_queue_jobs{state="failed"} 1',
      )
      expect(await app.contact.queue?.retryFailed()).toBe(1)
      await eventually(() => smtp.received.length === 1)
      expect(smtp.received[0]?.mail.headers.get('x-contact-id')).toBe(id)
    })

    it('warns, naming the setting, when Redis would not keep acknowledged messages', async () => {
      const unsafe = await startRedis({ durable: false })
      const warnings: string[] = []
      const log = { info: () => {}, warn: (_: object, message: string) => warnings.push(message) }
      try {
        await checkRedisDurability(unsafe.url, log)
        expect(warnings).toEqual([expect.stringContaining('appendonly is not "yes"')])
        warnings.length = 0
        await checkRedisDurability(redis.url, log)
        expect(warnings).toEqual([])
      } finally {
        await unsafe.dispose()
      }
    })
  },
)
