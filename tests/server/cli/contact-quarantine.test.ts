import { execFile } from 'node:child_process'
import { randomUUID } from 'node:crypto'
import { existsSync, mkdtempSync, readdirSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { QUARANTINE_FOLDER } from '#server/services/contact/quarantine.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import { eventually } from '#tests/helpers/eventually.ts'
import { withToken } from '#tests/helpers/form-token.ts'
import { get, texts } from '#tests/helpers/locales.ts'
import { sampleIn } from '#tests/helpers/metrics.ts'
import { emptyContactQueue, hasRedisServer, startRedis } from '#tests/helpers/redis.ts'
import { startSmtpServer } from '#tests/helpers/smtp.ts'

/**
 * The quarantine end to end (docs/contact.md#quarantine): the real app drops a person's message
 * (here for the honeypot, the simplest drop to cause), `npm run contact:quarantine` lists it
 * without the address, shows it and releases it, and the app's worker delivers it once over real
 * SMTP, its reason in the subject; erasure, retention and the bound under a flood.
 */

const run = promisify(execFile)

/** The operator's command against the app's store, as `npm run contact:quarantine` runs it. */
async function quarantineCommand(env: Record<string, string>, ...args: string[]) {
  try {
    const { stdout } = await run(process.execPath, ['server/cli/contact-quarantine.ts', ...args], {
      env: { ...process.env, ...env },
    })
    return { code: 0, stdout }
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string }
    return { code: failed.code, stdout: failed.stdout + failed.stderr }
  }
}

const POLISH = {
  name: 'Zażółć Gęślą',
  email: 'zazolc.gesla@example.pl',
  company: 'Jaźń Sp. z o.o.',
  service: 'security',
  subject: 'Audyt bezpieczeństwa',
  message: 'Prosimy o ofertę audytu bezpieczeństwa naszej sieci w przyszłym kwartale.',
  locale: 'pl',
}

/** A post the honeypot drops: a person's message with the hidden field filled (an autofill). */
const dropped = async (fields: Record<string, string> = POLISH) => ({
  ...(await withToken(fields)),
  website: 'https://autofill.example',
})

/** A mail text as sent: the site's typography keeps one-letter Polish words on their line. */
const mailText = (path: string) =>
  String(get(texts('pl', 'mail'), path)).replace(/(?<=\s\p{L}) /gu, '\u00a0')

describe('the quarantine, one replica (folder)', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>
  let app: FastifyInstance
  let dir: string
  const env = () => ({ OUTBOX_DIR: dir, CONTACT_TOKEN_SECRET: '', LOG_LEVEL: 'silent' })

  beforeAll(async () => {
    smtp = await startSmtpServer()
  })
  afterEach(async () => {
    await app.close()
    smtp.received.length = 0
  })
  afterAll(() => smtp.stop())

  async function startApp(extra: Record<string, string> = {}) {
    dir = mkdtempSync(join(tmpdir(), 'modernwerk-quarantine-cli-'))
    app = await buildTestApp(
      { SMTP_URL: smtp.url, OUTBOX_DIR: dir, ...extra },
      { deliveryPollMs: 100, firstRetryMs: 100 },
    )
  }
  const post = async (payload: object) =>
    app.inject({ method: 'POST', url: '/api/contact', payload })

  // Five commands, each a Node process of its own: a while on a busy machine.
  it(
    'lists a dropped message without its address, shows it, releases it: delivered once, marked',
    { timeout: 90_000 },
    async () => {
      await startApp()
      const response = await post(await dropped())
      expect(response.json()).toMatchObject({ status: 'accepted' })
      const [entry] = (await app.contact.quarantine?.list()) ?? []
      if (!entry) throw new Error('nothing was quarantined')

      const list = await quarantineCommand(env(), 'list')
      expect(list.code).toBe(0)
      expect(list.stdout).toContain(entry.id)
      expect(list.stdout).toMatch(/honeypot\s+contact\s+pl\s+\d+ B/)
      expect(list.stdout).toContain('1 entries')
      for (const personal of [POLISH.email, POLISH.name, POLISH.company, POLISH.message]) {
        expect(list.stdout).not.toContain(personal)
      }
      expect((await quarantineCommand(env(), 'list', '--addresses')).stdout).toContain(POLISH.email)

      const shown = await quarantineCommand(env(), 'show', entry.id)
      expect(shown.stdout).toContain(POLISH.message)
      expect(shown.stdout).toContain('reason:    honeypot')

      const released = await quarantineCommand(env(), 'release', entry.id)
      expect(released.code).toBe(0)
      expect(released.stdout).toContain(`Released ${entry.id}`)
      await eventually(() => smtp.received.length === 1)
      const mail = smtp.received[0]?.mail
      const marker = mailText('released').replace('{{reason}}', mailText('dropReason.honeypot'))
      expect(mail?.subject).toBe(`${marker} ${mailText('subjectPrefix')}: ${POLISH.subject}`)
      expect(mail?.text).toContain(
        `${mailText('releasedReason')}: ${mailText('dropReason.honeypot')}`,
      )
      expect(mail?.text).toContain(POLISH.message)
      expect(mail?.replyTo?.text).toContain(POLISH.email)

      // Once: gone from the quarantine, and releasing it again finds nothing.
      expect(await app.contact.quarantine?.list()).toEqual([])
      const again = await quarantineCommand(env(), 'release', entry.id)
      expect(again.code).toBe(1)
      expect(again.stdout).toContain('No entry')
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(smtp.received).toHaveLength(1)
    },
  )

  it(
    'sends the daily digest now: the last 24 hours held back, in full, to MAIL_TO',
    { timeout: 60_000 },
    async () => {
      await startApp({ MAIL_TO: 'leads@modernwerk.example' })
      const nothing = await quarantineCommand(env(), 'digest')
      expect(nothing.stdout).toContain('Nothing was held back in the last 24 hours')
      await post(await dropped())
      const [entry] = (await app.contact.quarantine?.list()) ?? []
      if (!entry) throw new Error('nothing was quarantined')
      const queued = await quarantineCommand(env(), 'digest')
      expect(queued.code).toBe(0)
      expect(queued.stdout).toContain('Queued the digest of 1 held-back messages')
      await eventually(() => smtp.received.length === 1)
      const digest = smtp.received[0]
      expect(digest?.envelopeTo).toEqual(['leads@modernwerk.example'])
      expect(digest?.mail.subject).toBe('[Website] 1 held-back message to review')
      expect(digest?.mail.text).toContain(POLISH.message)
      expect(digest?.mail.text).toContain(`contact-quarantine.ts release ${entry.id}`)
      // The digest shows the entry; it stays in the quarantine until released or deleted.
      expect((await app.contact.quarantine?.list())?.map(({ id }) => id)).toEqual([entry.id])
      expect((await quarantineCommand(env(), 'digest', 'extra')).code).toBe(2)
    },
  )

  it('shows control and bidirectional characters written out, as a release would mail them', async () => {
    await startApp()
    const message =
      'Prosimy o ofertę.\rZapłacono \u202Efdp.exe\u202C dziś.\r\nDruga linia\u2028koniec.'
    await post(await dropped({ ...POLISH, message }))
    const [entry] = (await app.contact.quarantine?.list()) ?? []
    if (!entry) throw new Error('nothing was quarantined')
    const shown = await quarantineCommand(env(), 'show', entry.id)
    expect(shown.stdout).toContain(
      'Prosimy o ofertę.⟨U+000D⟩Zapłacono ⟨U+202E⟩fdp.exe⟨U+202C⟩ dziś.\nDruga linia⟨U+2028⟩koniec.',
    )
    expect(shown.stdout).not.toMatch(/[\r\u202A-\u202E\u2028]/u)
  })

  it("releases into the outbox and leaves the running site's writes in progress alone", async () => {
    await startApp()
    await post(await dropped())
    const [entry] = (await app.contact.quarantine?.list()) ?? []
    if (!entry) throw new Error('nothing was quarantined')
    // A write of the site's in progress, and one a crash cut off 11 minutes ago.
    const live = join(dir, `${randomUUID()}.json.${randomUUID()}.tmp`)
    const stale = join(dir, `${randomUUID()}.json.${randomUUID()}.tmp`)
    writeFileSync(live, '{"partial":')
    writeFileSync(stale, '{"partial":')
    const old = new Date(Date.now() - 11 * 60_000)
    utimesSync(stale, old, old)
    expect((await quarantineCommand(env(), 'release', entry.id)).code).toBe(0)
    expect(existsSync(live)).toBe(true)
    expect(existsSync(stale)).toBe(false)
    await eventually(() => smtp.received.length === 1)
  })

  it('deletes an entry at once, and refuses what is not a command', async () => {
    await startApp()
    await post(await dropped())
    const [entry] = (await app.contact.quarantine?.list()) ?? []
    expect((await quarantineCommand(env(), 'delete', entry?.id ?? '')).stdout).toContain('Deleted')
    expect(readdirSync(join(dir, QUARANTINE_FOLDER))).toEqual([])
    expect((await quarantineCommand(env(), 'show')).code).toBe(2)
    expect((await quarantineCommand(env(), 'purge')).code).toBe(2)
    expect((await quarantineCommand(env(), 'show', 'x', '--addresses')).code).toBe(2)
  })

  it('is reached by erasure on request (contact:erase), one sender only', async () => {
    await startApp()
    await post(await dropped())
    await post(await dropped({ ...POLISH, email: 'someone.else@example.pl' }))
    const { stdout } = await run(
      process.execPath,
      ['server/cli/contact-erase.ts', '--email', POLISH.email.toUpperCase()],
      { env: { ...process.env, ...env() } },
    )
    expect(stdout).toContain('1 dropped post(s) erased')
    expect(stdout).not.toContain(POLISH.email)
    const left = (await app.contact.quarantine?.list()) ?? []
    expect(left.map(({ entry }) => entry.message.email)).toEqual(['someone.else@example.pl'])
  })

  it('deletes an entry after QUARANTINE_DAYS, from the disk', async () => {
    await startApp({ QUARANTINE_DAYS: '7' })
    await post(await dropped())
    const folder = join(dir, QUARANTINE_FOLDER)
    expect(readdirSync(folder)).toHaveLength(1)
    // The sweep the hour before the deadline.
    expect(await app.contact.purgeQuarantine(Date.now() + 6 * 86_400_000)).toBe(0)
    expect(await app.contact.purgeQuarantine(Date.now() + 7 * 86_400_000 - 3_600_000)).toBe(1)
    expect(readdirSync(folder)).toEqual([])
    const metrics = (await app.inject({ url: '/metrics' })).body
    expect(sampleIn(metrics, 'contact_quarantine_removed_total{cause="expired"}')).toBe(1)
  })

  it('keeps nothing with QUARANTINE_DAYS=0', async () => {
    await startApp({ QUARANTINE_DAYS: '0' })
    expect((await post(await dropped())).json()).toMatchObject({ status: 'accepted' })
    expect(app.contact.quarantine).toBeNull()
    expect(existsSync(join(dir, QUARANTINE_FOLDER))).toBe(false)
  })

  it('with QUARANTINE_DAYS set to 0 later, deletes what was kept before at the first sweep', async () => {
    await startApp()
    expect((await post(await dropped())).json()).toMatchObject({ status: 'accepted' })
    const folder = join(dir, QUARANTINE_FOLDER)
    expect(readdirSync(folder)).toHaveLength(1)
    await app.close()
    // The same folder, now with nothing to be kept: the policy then says none is kept.
    app = await buildTestApp({ SMTP_URL: smtp.url, OUTBOX_DIR: dir, QUARANTINE_DAYS: '0' })
    expect(app.contact.quarantine).toBeNull()
    expect(await app.contact.purgeQuarantine()).toBe(1)
    expect(readdirSync(folder)).toEqual([])
  })

  it('holds its bound under a flood, counting what it pushed out; a lead in the middle is delivered', async () => {
    await startApp({ QUARANTINE_MAX_ENTRIES: '10', CONTACT_RATE_MAX: '1000' })
    const flood = await dropped({ ...POLISH, name: 'Bot', email: 'bot@example.com' })
    for (let index = 0; index < 30; index++) await post(flood)
    expect((await post(await withToken(POLISH))).json()).toMatchObject({ status: 'accepted' })
    for (let index = 0; index < 30; index++) await post(flood)
    await eventually(() => smtp.received.length === 1)
    expect(smtp.received[0]?.mail.text).toContain(POLISH.message)
    expect(readdirSync(join(dir, QUARANTINE_FOLDER))).toHaveLength(10)
    const metrics = (await app.inject({ url: '/metrics' })).body
    expect(sampleIn(metrics, 'contact_quarantine_entries')).toBe(10)
    expect(sampleIn(metrics, 'contact_quarantined_total{reason="honeypot"}')).toBe(60)
    expect(sampleIn(metrics, 'contact_quarantine_removed_total{cause="evicted"}')).toBe(50)
  })
})

describe.skipIf(!hasRedisServer())('the quarantine, several replicas (Redis)', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>
  let redis: Awaited<ReturnType<typeof startRedis>>
  const apps: FastifyInstance[] = []

  beforeAll(async () => {
    smtp = await startSmtpServer()
    redis = await startRedis({ durable: true })
    await emptyContactQueue(redis.url)
  })
  afterAll(async () => {
    for (const app of apps) await app.close()
    await redis.dispose()
    await smtp.stop()
  })

  it('a drop on one replica is listed and released from the other, and delivered once', async () => {
    const replica = () =>
      buildTestApp(
        {
          SMTP_URL: smtp.url,
          REDIS_URL: redis.url,
          OUTBOX_DIR: mkdtempSync(join(tmpdir(), 'modernwerk-quarantine-cli-')),
        },
        { firstRetryMs: 100 },
      )
    apps.push(await replica(), await replica())
    const [first, second] = apps
    if (!first || !second) throw new Error('two replicas')
    await first.inject({ method: 'POST', url: '/api/contact', payload: await dropped() })
    const [entry] = (await second.contact.quarantine?.list()) ?? []
    if (!entry) throw new Error('not quarantined in Redis')
    const env = { REDIS_URL: redis.url, LOG_LEVEL: 'silent' }
    const list = await quarantineCommand(env, 'list')
    expect(list.stdout).toContain(entry.id)
    expect(list.stdout).not.toContain(POLISH.email)
    expect((await quarantineCommand(env, 'release', entry.id)).code).toBe(0)
    await eventually(() => smtp.received.length === 1)
    expect(smtp.received[0]?.mail.subject).toContain(mailText('dropReason.honeypot'))
    expect(await first.contact.quarantine?.list()).toEqual([])
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(smtp.received).toHaveLength(1)
  })

  it('sweeps the folder a replica kept entries in before REDIS_URL was set', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'modernwerk-quarantine-cli-'))
    const alone = await buildTestApp({ SMTP_URL: smtp.url, OUTBOX_DIR: dir })
    await alone.inject({ method: 'POST', url: '/api/contact', payload: await dropped() })
    await alone.close()
    const folder = join(dir, QUARANTINE_FOLDER)
    expect(readdirSync(folder)).toHaveLength(1)
    const replica = await buildTestApp({
      SMTP_URL: smtp.url,
      OUTBOX_DIR: dir,
      REDIS_URL: redis.url,
    })
    apps.push(replica)
    // Not in the Redis store in use, and swept all the same when its period ends.
    expect(await replica.contact.quarantine?.list()).toEqual([])
    expect(await replica.contact.purgeQuarantine(Date.now() + 2 * 86_400_000)).toBe(0)
    expect(readdirSync(folder)).toHaveLength(1)
    expect(await replica.contact.purgeQuarantine(Date.now() + 7 * 86_400_000)).toBe(1)
    expect(readdirSync(folder)).toEqual([])
  })
})
