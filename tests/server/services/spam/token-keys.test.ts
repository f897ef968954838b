import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { Redis } from 'ioredis'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import {
  loadTokenKeys,
  REDIS_KEY,
  STORED_KEY_FILE,
  storedFileKey,
  storedRedisKey,
  TokenKeys,
} from '#server/services/spam/token-keys.ts'
import { TOKEN_FIELD } from '#shared/contact-fields.ts'
import type { ProofChallenge } from '#shared/proof-of-work.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import { eventually } from '#tests/helpers/eventually.ts'
import { solveProof } from '#tests/helpers/form-token.ts'
import { hasRedisServer, startRedis } from '#tests/helpers/redis.ts'
import { startSmtpServer } from '#tests/helpers/smtp.ts'

/**
 * The forms' keys outlive the process (docs/contact.md#spam-defence;
 * docs/decisions/form-token-keys.md): a visitor who opened a form before a restart, a deploy or a
 * key rotation still reaches the inbox. Real folders, a real redis-server, the real app and SMTP
 * server.
 */

const tempDir = () => mkdtempSync(join(tmpdir(), 'modernwerk-keys-'))
const quiet = { info: () => {}, warn: () => {}, error: () => {} }

describe('the key kept beside the outbox', () => {
  it('is made once, owner-only, and read again after a restart', async () => {
    const dir = tempDir()
    const first = await storedFileKey(dir)
    const file = join(dir, STORED_KEY_FILE)
    expect(statSync(file).mode & 0o777).toBe(0o600)
    expect(first).toHaveLength(32)
    expect(await storedFileKey(dir)).toEqual(first)
    expect(readFileSync(file, 'utf8').trim()).toBe(first.toString('base64'))
  })

  it('is kept on the first start on a new data folder (the folder made owner-only)', async () => {
    const dir = join(tempDir(), 'data', 'outbox')
    const first = await storedFileKey(dir)
    expect(statSync(dir).mode & 0o777).toBe(0o700)
    expect(await storedFileKey(dir)).toEqual(first)
  })

  it('is the same for processes starting side by side on one folder, and never read half-written', async () => {
    // 50 folders: a reader between another's create and write showed up in about one start
    // of seven on a fresh folder (2026-11-30), so one folder alone would mostly pass.
    for (let round = 0; round < 50; round++) {
      const dir = tempDir()
      const keys = await Promise.all(Array.from({ length: 8 }, () => storedFileKey(dir)))
      expect(new Set(keys.map((key) => key.toString('hex'))).size).toBe(1)
      expect(readdirSync(dir)).toEqual([STORED_KEY_FILE])
    }
  })

  it('is never replaced when damaged: the error says which file', async () => {
    const dir = tempDir()
    writeFileSync(join(dir, STORED_KEY_FILE), 'not a key\n')
    await expect(storedFileKey(dir)).rejects.toThrow(STORED_KEY_FILE)
  })

  it('cannot be kept (a folder that is no folder): the process signs with its own and says so', async () => {
    const errors: string[] = []
    const log = {
      ...quiet,
      error: (_details: object, message: string) => void errors.push(message),
    }
    const { keys } = await loadTokenKeys({ dir: '/dev/null/outbox', redis: null, log })
    expect(keys.current.secret).toHaveLength(32)
    expect(errors).toEqual([expect.stringContaining('cannot be kept beside the outbox')])
  })
})

describe('configured keys', () => {
  it('CONTACT_TOKEN_SECRET signs; each of CONTACT_TOKEN_PREVIOUS_SECRETS still verifies', async () => {
    const secret = 'the-new-key-of-at-least-thirty-two-characters'
    const old = 'the-old-key-of-at-least-thirty-two-characters'
    const { keys } = await loadTokenKeys({
      secret,
      previous: [old],
      dir: '/dev/null/never-used',
      redis: null,
      log: quiet,
    })
    const current = new TokenKeys(Buffer.from(secret)).current
    const previous = new TokenKeys(Buffer.from(old)).current
    expect(keys.current.id).toBe(current.id)
    expect(keys.byId(previous.id)?.secret.toString()).toBe(old)
    expect(keys.all().map((key) => key.id)).toEqual([current.id, previous.id])
  })
})

describe.skipIf(!hasRedisServer())('the key shared through Redis', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>
  const clients: Redis[] = []
  const client = () => {
    const created = new Redis(redis.url, { maxRetriesPerRequest: 1, connectTimeout: 500 })
    created.on('error', () => {})
    clients.push(created)
    return created
  }

  beforeAll(async () => {
    // Durable, as the chart runs it: the shared key outlives a restart of Redis.
    redis = await startRedis({ durable: true })
  })
  afterAll(async () => {
    for (const created of clients) created.disconnect()
    await redis.dispose()
  })

  it('is made by the first replica and read by every other', async () => {
    await client().del(REDIS_KEY)
    const keys = await Promise.all(Array.from({ length: 6 }, () => storedRedisKey(client())))
    expect(new Set(keys.map((key) => key.toString('hex'))).size).toBe(1)
    expect(await client().get(REDIS_KEY)).toBe(keys[0]?.toString('base64'))
  })

  it('a replica that started while Redis was away signs with its own key, then adopts the shared one', async () => {
    await client().del(REDIS_KEY)
    const shared = await storedRedisKey(client())
    await redis.stop()
    const away = client()
    const { keys, stop } = await loadTokenKeys({
      dir: tempDir(),
      redis: away,
      log: quiet,
      retryMs: 200,
    })
    const own = keys.current
    expect(own.secret.equals(shared)).toBe(false)
    await redis.start()
    await eventually(() => keys.current.secret.equals(shared))
    // What it signed while Redis was away still verifies here.
    expect(keys.byId(own.id)).toBeDefined()
    stop()
  })
})

describe('a visitor’s open form across a restart (the real app, no key configured)', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>
  const apps: FastifyInstance[] = []
  const site = async (env: Record<string, string>) => {
    // CONTACT_TOKEN_SECRET empty: unset, as `npm start` and the image run it.
    const app = await buildTestApp(
      { SMTP_URL: smtp.url, CONTACT_TOKEN_SECRET: '', ...env },
      { deliveryPollMs: 100, firstRetryMs: 100 },
    )
    apps.push(app)
    return app
  }
  const message = {
    name: 'Jürgen Weiß',
    email: 'juergen.weiss@example.de',
    service: 'cloud',
    subject: 'Rechenzentrum in Frankfurt',
    message: 'Wir möchten unsere Server bis Jahresende in ein Rechenzentrum in Frankfurt verlegen.',
    locale: 'de',
  }

  /** The form's script: its token and solved challenge, taken before the restart. */
  async function openForm(app: FastifyInstance) {
    const response = await app.inject({ url: '/api/contact/token?form=contact&locale=de' })
    const grant = response.json<{ token: string; challenge: ProofChallenge }>()
    return { [TOKEN_FIELD]: grant.token, proof: await solveProof(grant.challenge) }
  }
  const send = (app: FastifyInstance, form: Record<string, string>) =>
    app.inject({ method: 'POST', url: '/api/contact', payload: { ...message, ...form } })

  beforeAll(async () => {
    smtp = await startSmtpServer()
  })
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close()
    smtp.received.length = 0
  })
  afterAll(() => smtp.stop())

  it('the same data folder: the lead is delivered', async () => {
    const dir = tempDir()
    const before = await site({ OUTBOX_DIR: dir })
    const form = await openForm(before)
    await before.close()
    // A person takes a few seconds to write (the token's minimum age).
    await new Promise((resolve) => setTimeout(resolve, 3_100))
    const after = await site({ OUTBOX_DIR: dir })
    expect((await send(after, form)).statusCode).toBe(202)
    await eventually(() => smtp.received.length === 1)
    expect(smtp.received[0]?.mail.text).toContain(message.message)
    expect(await after.contact.quarantine?.list()).toEqual([])
  })

  it('the data folder lost: answered like an expired form, sent again with the new token, delivered', async () => {
    const before = await site({ OUTBOX_DIR: tempDir() })
    const form = await openForm(before)
    await before.close()
    await new Promise((resolve) => setTimeout(resolve, 3_100))
    const after = await site({ OUTBOX_DIR: tempDir() })
    const renewed = await send(after, form)
    expect(renewed.statusCode).toBe(409)
    const answer = renewed.json<{ token: string; challenge: ProofChallenge }>()
    expect(smtp.received).toHaveLength(0)
    const again = await send(after, {
      [TOKEN_FIELD]: answer.token,
      proof: await solveProof(answer.challenge),
    })
    expect(again.statusCode).toBe(202)
    await eventually(() => smtp.received.length === 1)
  })

  it('a rotated key: the previous one in CONTACT_TOKEN_PREVIOUS_SECRETS, the lead is delivered', async () => {
    const old = 'the-key-before-the-rotation-32-characters'
    const before = await site({ CONTACT_TOKEN_SECRET: old })
    const form = await openForm(before)
    await before.close()
    await new Promise((resolve) => setTimeout(resolve, 3_100))
    const after = await site({
      CONTACT_TOKEN_SECRET: 'the-key-after-the-rotation-of-32-characters',
      CONTACT_TOKEN_PREVIOUS_SECRETS: old,
    })
    expect((await send(after, form)).statusCode).toBe(202)
    await eventually(() => smtp.received.length === 1)
  })
})
