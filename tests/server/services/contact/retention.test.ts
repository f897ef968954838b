import { execFile } from 'node:child_process'
import { mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Writable } from 'node:stream'
import { promisify } from 'node:util'
import { Worker } from 'bullmq'
import type { FastifyInstance } from 'fastify'
import { Redis } from 'ioredis'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { FileOutbox } from '#server/services/contact/outbox.ts'
import { CLAIMS_FILE } from '#server/services/spam/claims.ts'
import type { ContactMessage } from '#shared/contact-schema.ts'
import { QUEUE_NAME, QUEUE_PREFIX } from '#server/services/contact/redis-outbox.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import { freePort } from '#tests/helpers/net.ts'
import {
  emptyContactQueue,
  hasRedisServer,
  REDIS_SERVER,
  startRedis,
} from '#tests/helpers/redis.ts'
import { eventually } from '#tests/helpers/eventually.ts'
import { startSmtpServer } from '#tests/helpers/smtp.ts'
import { withToken } from '#tests/helpers/form-token.ts'

const DAY_MS = 86_400_000
const HOUR_MS = 3_600_000
const ROOT = join(import.meta.dirname, '../../../..')

/** A sender whose name, address and words must not outlive the retention rules. */
const ALICE = {
  name: 'Alicja Zielińska',
  email: 'alicja.zielinska@example.pl',
  service: 'cloud',
  message: 'Prosimy o ofertę na migrację naszego sklepu internetowego.',
  locale: 'pl',
} as const
const BOB = {
  name: 'Bernd Schubert',
  email: 'bernd@example.de',
  service: 'other',
  message: 'Wir möchten unsere Warenwirtschaft modernisieren.',
  locale: 'de',
} as const

/** Log lines as objects, from a pino stream. */
function logCollector() {
  const lines: Array<Record<string, unknown>> = []
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString().split('\n').filter(Boolean)) {
        lines.push(JSON.parse(line) as Record<string, unknown>)
      }
      done()
    },
  })
  return { lines, logger: { level: 'info', stream } }
}

async function purgedMetric(app: FastifyInstance): Promise<number> {
  const text = (await app.inject('/metrics')).body
  return Number(/^contact_messages_purged_total (\d+)/m.exec(text)?.[1] ?? NaN)
}

/** The app's Redis queue (the suite runs with `REDIS_URL`). */
function queueOf(app: FastifyInstance) {
  const queue = app.contact.queue?.queue
  if (!queue) throw new Error('the app has no Redis queue')
  return queue
}

const dirs: string[] = []
function tempDir() {
  const dir = mkdtempSync(join(tmpdir(), 'retention-'))
  dirs.push(dir)
  return dir
}
const messageFiles = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.json'))

afterAll(() => {
  for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
})

describe('retention in the outbox folder (one replica)', { timeout: 30_000 }, () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>
  const apps: FastifyInstance[] = []

  beforeAll(async () => {
    smtp = await startSmtpServer()
  })
  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()))
    smtp.received.length = 0
  })
  afterAll(() => smtp.stop())

  async function site(env: Record<string, string>, logger?: object) {
    const app = await buildTestApp(env, { deliveryPollMs: 100, firstRetryMs: 100, logger })
    apps.push(app)
    return app
  }

  it('a delivered message leaves nothing behind in the folder', async () => {
    const dir = tempDir()
    const app = await site({ SMTP_URL: smtp.url, OUTBOX_DIR: dir })
    expect(
      (await app.inject({ method: 'POST', url: '/api/contact', payload: await withToken(ALICE) }))
        .statusCode,
    ).toBe(202)
    await eventually(() => smtp.received.length === 1)
    await eventually(() => messageFiles(dir).length === 0)
    expect(smtp.received[0]?.mail.text).toContain(ALICE.message)
    // Nothing but the (empty) quarantine's folder and the used tokens' claims, which hold
    // keys and checksums, nothing of the message.
    expect(readdirSync(dir, { recursive: true }).sort()).toEqual([CLAIMS_FILE, 'quarantine'])
    const claims = readFileSync(join(dir, CLAIMS_FILE), 'utf8')
    expect(claims).not.toBe('')
    for (const personal of [ALICE.email, ALICE.name, ALICE.message]) {
      expect(claims).not.toContain(personal)
    }
  })

  it('an undeliverable message is kept until CONTACT_RETENTION_DAYS, deleted by the last sweep before, with a log line and a metric', async () => {
    const dir = tempDir()
    const { lines, logger } = logCollector()
    // Nothing listens on this port: every attempt fails.
    const deadSmtp = `smtp://127.0.0.1:${await freePort()}`
    const app = await site(
      { SMTP_URL: deadSmtp, OUTBOX_DIR: dir, CONTACT_RETENTION_DAYS: '10' },
      logger,
    )
    const response = await app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: await withToken(ALICE),
    })
    const { id } = response.json<{ id: string }>()
    await eventually(() => lines.some((line) => line.msg?.toString().includes('will retry')))

    // Sweeps run hourly: two hours before the deadline the message stays, and the sweep in
    // the deadline's last hour deletes it, so it is never kept longer than the policy says.
    expect(await app.contact.purgeExpired(Date.now() + 10 * DAY_MS - 2 * HOUR_MS)).toBe(0)
    // Its file names it, when it came in and its retry schedule.
    expect(messageFiles(dir)).toEqual([
      expect.stringMatching(new RegExp(`^${id}\\.\\d+\\.\\d+\\.\\d+\\.json$`)),
    ])

    expect(await app.contact.purgeExpired(Date.now() + 10 * DAY_MS - HOUR_MS / 2)).toBe(1)
    expect(messageFiles(dir)).toEqual([])
    expect(await purgedMetric(app)).toBe(1)
    const line = lines.find((entry) => entry.messageId === id && entry.days === 10)
    expect(line?.level).toBe(40)
    expect(typeof line?.attempts).toBe('number')
    expect(line?.msg).toContain('retention period')
    // No log line ever carries what the visitor typed.
    const log = JSON.stringify(lines)
    for (const value of [ALICE.name, ALICE.email, ALICE.message]) expect(log).not.toContain(value)
  })

  it('a file that no longer reads as a message is deleted by its age, not kept for ever', async () => {
    const dir = tempDir()
    const app = await site({ OUTBOX_DIR: dir })
    const old = join(dir, `${crypto.randomUUID()}.json`)
    const fresh = join(dir, `${crypto.randomUUID()}.json`)
    writeFileSync(old, '{"message": {"email": "broken')
    writeFileSync(fresh, '{"message": {"email": "also broken')
    const longAgo = new Date(Date.now() - 31 * DAY_MS)
    utimesSync(old, longAgo, longAgo)
    expect(await app.contact.purgeExpired()).toBe(1)
    expect(messageFiles(dir)).toEqual([fresh.slice(dir.length + 1)])
  })
})

if (!hasRedisServer()) {
  console.warn(
    `Skipping the Redis retention tests: no ${REDIS_SERVER} (apt-get install redis-server)`,
  )
}

describe.skipIf(!hasRedisServer())('retention and erasure with Redis', { timeout: 30_000 }, () => {
  let redis: Awaited<ReturnType<typeof startRedis>>
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>
  const apps: FastifyInstance[] = []

  beforeAll(async () => {
    redis = await startRedis()
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
  })

  async function replica(env: Record<string, string> = {}, logger?: object) {
    const app = await buildTestApp(
      { REDIS_URL: redis.url, OUTBOX_DIR: tempDir(), CONTACT_RATE_MAX: '10000', ...env },
      // The default job lock (10 s): a test process starved for a few seconds must not lose a
      // delivery's lock and send the message a second time.
      { firstRetryMs: 100, logger },
    )
    apps.push(app)
    return app
  }

  /** Every value Redis holds, as one text: what a leaked address would show up in. */
  async function everythingInRedis(): Promise<string> {
    const client = new Redis(redis.url)
    try {
      const values: string[] = []
      for (const key of await client.keys('*')) {
        const type = await client.type(key)
        if (type === 'hash') values.push(JSON.stringify(await client.hgetall(key)))
        else if (type === 'string') values.push((await client.get(key)) ?? '')
        else if (type === 'list') values.push(...(await client.lrange(key, 0, -1)))
        else if (type === 'set') values.push(...(await client.smembers(key)))
        else if (type === 'zset') values.push(...(await client.zrange(key, '0', '-1')))
        else if (type === 'stream') values.push(JSON.stringify(await client.xrange(key, '-', '+')))
        values.push(key)
      }
      return values.join('\n')
    } finally {
      client.disconnect()
    }
  }

  const post = async (app: FastifyInstance, payload: object) =>
    app.inject({ method: 'POST', url: '/api/contact', payload: await withToken(payload) })

  it('a delivered message keeps only its id and timestamps in Redis', async () => {
    const app = await replica({ SMTP_URL: smtp.url })
    const { id } = (await post(app, ALICE)).json<{ id: string }>()
    await eventually(() => smtp.received.length === 1)
    const queue = queueOf(app)
    await eventually(async () => {
      const job = await queue.getJob(id)
      return job !== undefined && !('message' in job.data)
    })
    const record = (await queue.getJob(id))?.data
    expect(Object.keys(record ?? {}).sort()).toEqual(['deliveredAt', 'id', 'receivedAt'])
    expect(record?.id).toBe(id)
    const stored = await everythingInRedis()
    for (const value of [ALICE.name, ALICE.email, ALICE.message])
      expect(stored).not.toContain(value)
    // The record still makes a repeated submission no second lead.
    expect((await post(app, { ...ALICE, id })).statusCode).toBe(202)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(smtp.received).toHaveLength(1)
  })

  it('a delivered job that still holds its message (a crash before it was reduced) is reduced by the sweep', async () => {
    const app = await replica() // no SMTP: this replica delivers nothing itself
    const { id } = (await post(app, ALICE)).json<{ id: string }>()
    // Another process completes the job and dies before reducing it.
    const worker = new Worker(QUEUE_NAME, async () => {}, {
      connection: { url: redis.url, maxRetriesPerRequest: null },
      prefix: QUEUE_PREFIX,
    })
    const queue = queueOf(app)
    await eventually(async () => (await queue.getJobState(id)) === 'completed')
    await worker.close()
    expect((await queue.getJob(id))?.data).toMatchObject({ message: { email: ALICE.email } })
    expect(await app.contact.purgeExpired()).toBe(0)
    expect(await everythingInRedis()).not.toContain(ALICE.email)
  })

  it('an undeliverable message is deleted no later than CONTACT_RETENTION_DAYS, with a log line and a metric', async () => {
    const { lines, logger } = logCollector()
    const app = await replica(
      { SMTP_URL: `smtp://127.0.0.1:${await freePort()}`, CONTACT_RETENTION_DAYS: '30' },
      logger,
    )
    const { id } = (await post(app, ALICE)).json<{ id: string }>()
    await eventually(() => lines.some((line) => line.msg?.toString().includes('will retry')))
    expect(await app.contact.purgeExpired(Date.now() + 30 * DAY_MS - 2 * HOUR_MS)).toBe(0)
    expect(await queueOf(app).getJob(id)).toBeDefined()

    await eventually(
      async () => (await app.contact.purgeExpired(Date.now() + 30 * DAY_MS - HOUR_MS / 2)) === 1,
    )
    expect(await queueOf(app).getJob(id)).toBeUndefined()
    expect(await purgedMetric(app)).toBe(1)
    expect(lines.find((line) => line.messageId === id && line.days === 30)?.msg).toContain(
      'retention period',
    )
    expect(await everythingInRedis()).not.toContain(ALICE.email)
  })

  it('`npm run contact:erase` removes every stored message of one sender, and prints no address', async () => {
    const app = await replica() // no SMTP: messages wait in the queue
    for (const payload of [ALICE, { ...ALICE, message: `${ALICE.message} Drugie pytanie.` }, BOB]) {
      expect((await post(app, payload)).statusCode).toBe(202)
    }
    const folder = new FileOutbox(tempDir())
    await folder.init()
    const entry = (message: ContactMessage) => ({
      id: crypto.randomUUID(),
      receivedAt: new Date().toISOString(),
      message,
      attempts: 0,
      nextAttemptAt: 0,
    })
    await folder.put(entry({ ...ALICE, email: ALICE.email.toUpperCase() }))
    await folder.put(entry(BOB))
    writeFileSync(join(folder.dir, `${crypto.randomUUID()}.json`), `{"email":"${ALICE.email}"`)

    const run = (args: string[]) =>
      promisify(execFile)(process.execPath, ['server/cli/contact-erase.ts', ...args], {
        cwd: ROOT,
        env: { ...process.env, OUTBOX_DIR: folder.dir, REDIS_URL: redis.url, NODE_ENV: 'test' },
      })
    const { stdout } = await run(['--email', ` ${ALICE.email.replace('a', 'A')} `])
    expect(stdout).toContain('Outbox folder')
    expect(stdout).toMatch(/Outbox folder .*: 2 message\(s\) erased/)
    expect(stdout).toContain('Redis queue: 2 message(s) erased.')
    // This suite's Redis keeps no append-only file (redis-disk.test.ts covers one that does).
    expect(stdout).toContain('Redis keeps no append-only file')
    expect(stdout.toLowerCase()).not.toContain(ALICE.email)

    // Bob's messages are untouched, Alice's are nowhere.
    const left = messageFiles(folder.dir).map((name) =>
      readFileSync(join(folder.dir, name), 'utf8'),
    )
    expect(left).toHaveLength(1)
    expect(left[0]).toContain(BOB.email)
    const jobs = await queueOf(app).getJobs(['waiting', 'delayed'])
    expect(jobs.map((job) => ('message' in job.data ? job.data.message.email : ''))).toEqual([
      BOB.email,
    ])
    expect(await everythingInRedis()).not.toContain(ALICE.email)

    // A wrong argument is refused with the usage, and erases nothing.
    const refused = await run(['--email', 'not-an-address']).catch((error: unknown) => error)
    expect(refused).toMatchObject({ code: 2 })
    expect(String((refused as { stderr?: string }).stderr)).toContain('Usage:')
  })
})
