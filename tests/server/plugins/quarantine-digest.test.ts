import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { loadConfig } from '#server/config.ts'
import { digestData, digestMailOf, dueDigest } from '#server/services/contact/quarantine-digest.ts'
import type { QuarantineEntry } from '#server/services/contact/quarantine.ts'
import { issueToken } from '#server/services/spam/form-token.ts'
import { tokenKey } from '#server/services/spam/token-keys.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import { eventually } from '#tests/helpers/eventually.ts'
import { TEST_TOKEN_SECRET, withToken } from '#tests/helpers/form-token.ts'
import { sampleIn } from '#tests/helpers/metrics.ts'
import { startSmtpServer } from '#tests/helpers/smtp.ts'

/**
 * The daily digest of held-back messages (docs/contact.md#quarantine): a real person's post the
 * spam defence held back reaches `MAIL_TO` in full the next morning, once, with the command that
 * releases it; real SMTP over TCP, the real app.
 */

const AT = { hour: 8, minute: 0 }

describe('the day a digest is due for (Europe/Berlin)', () => {
  it.each([
    // Winter (CET, UTC+1): 08:00 is 07:00 UTC.
    ['2026-11-29T07:30:00Z', '2026-11-29', '2026-11-28T07:00:00.000Z', '2026-11-29T07:00:00.000Z'],
    ['2026-11-29T06:59:00Z', '2026-11-28', '2026-11-27T07:00:00.000Z', '2026-11-28T07:00:00.000Z'],
    // Summer (CEST, UTC+2): 08:00 is 06:00 UTC.
    ['2026-07-01T06:00:00Z', '2026-07-01', '2026-06-30T06:00:00.000Z', '2026-07-01T06:00:00.000Z'],
    // The spring change (29 March 2026): a day of 23 hours.
    ['2026-03-29T09:00:00Z', '2026-03-29', '2026-03-28T07:00:00.000Z', '2026-03-29T06:00:00.000Z'],
    // The autumn change (25 October 2026): a day of 25 hours.
    ['2026-10-25T09:00:00Z', '2026-10-25', '2026-10-24T06:00:00.000Z', '2026-10-25T07:00:00.000Z'],
  ])('at %s: the digest of %s, from %s until %s', (now, day, from, until) => {
    const due = dueDigest(new Date(now), AT)
    expect(due.day).toBe(day)
    expect(due.from.toISOString()).toBe(from)
    expect(due.until.toISOString()).toBe(until)
    // The same id on every replica and after a restart; never one a visitor's post can take.
    expect(due.id).toBe(dueDigest(new Date(Date.parse(now) + 30_000), AT).id)
    expect(due.id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-8/)
  })
})

describe('a digest of a flood', () => {
  it('keeps people’s messages first and within its size, and counts what it left out', () => {
    const due = dueDigest(new Date('2026-11-29T09:00:00Z'), AT)
    const entry = (index: number, reason: QuarantineEntry['reason']): QuarantineEntry => ({
      id: `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
      receivedAt: new Date(due.until.getTime() - 3_600_000 + index).toISOString(),
      reason,
      form: 'contact',
      message: {
        name: `Sender ${index}`,
        email: `sender${index}@example.com`,
        service: 'cloud',
        subject: 'Offer',
        message: 'x'.repeat(5_000),
        locale: 'en',
      },
    })
    // 600 bots' posts of 5 kB, then one person's, and one from before the day.
    const held = [
      ...Array.from({ length: 600 }, (_, index) => entry(index, 'honeypot')),
      entry(600, 'tooFast'),
      { ...entry(601, 'tooFast'), receivedAt: '2026-11-27T09:00:00.000Z' },
    ]
    const data = digestData(due, held)
    expect(data.entries[0]?.reason).toBe('tooFast')
    expect(data.entries).toHaveLength(
      1 + data.entries.filter((e) => e.reason === 'honeypot').length,
    )
    const left = data.leftOut.honeypot ?? 0
    expect(left).toBeGreaterThan(150)
    expect(data.entries.length + left).toBe(601)
    const mail = digestMailOf(data)
    expect(mail.subject).toBe('[Website] 601 held-back messages to review (1 may be from a person)')
    expect(mail.text).toContain(`Left out of this mail for its size: ${left} honeypot`)
    // The cap is on what senders typed (2 MB); the lines around each add about a tenth.
    expect(Buffer.byteLength(mail.text)).toBeLessThan(2_500_000)
  })
})

describe('the daily digest', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>
  let app: FastifyInstance | undefined

  beforeAll(async () => {
    smtp = await startSmtpServer()
  })
  afterAll(async () => {
    await smtp.stop()
  })
  afterEach(async () => {
    await app?.close()
    app = undefined
    smtp.received.length = 0
  })

  const site = (env: Record<string, string> = {}) =>
    buildTestApp(
      {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Website <website@modernwerk.example>',
        MAIL_TO: 'leads@modernwerk.example',
        CONTACT_RATE_MAX: '1000',
        ...env,
      },
      { deliveryPollMs: 100, firstRetryMs: 100 },
    )

  const post = (instance: FastifyInstance, body: object) =>
    instance.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      payload: JSON.stringify(body),
    })

  const metric = async (instance: FastifyInstance, sample: string) =>
    sampleIn((await instance.inject({ url: '/metrics' })).body, sample)

  /** A time whose due digest covers posts made now: the next day, past the digest's hour. */
  const tomorrow = () => new Date(Date.now() + 86_400_000)

  it('shows a person’s message the defence held back, in full, with the command that releases it, once', async () => {
    app = await site()
    const message = {
      name: 'Agnieszka Wiśniewska',
      email: 'a.wisniewska@example.pl',
      service: 'cloud',
      subject: 'Migracja serwerów',
      message: 'Dzień dobry, chcielibyśmy przenieść nasze serwery do Niemiec w tym roku.',
      locale: 'pl',
      form: 'contact',
    }
    // Autofill and a quick click: sent as soon as the form got its token.
    const hurried = issueToken(tokenKey(Buffer.from(TEST_TOKEN_SECRET)), {
      kind: 'script',
      form: 'contact',
      locale: 'pl',
      issuedAt: Date.now(),
    })
    expect((await post(app, { ...message, token: hurried })).statusCode).toBe(202)
    // And a bot's, after it: it comes second in the digest.
    const bot = { ...message, name: 'Best Offers', email: 'offers@example.com', website: 'x' }
    expect((await post(app, await withToken(bot))).statusCode).toBe(202)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(smtp.received).toHaveLength(0)
    const [held] = (await app.contact.quarantine?.list()) ?? []

    expect(await app.quarantineDigest?.run(tomorrow())).toBe('queued')
    await eventually(() => smtp.received.length === 1, 30_000)
    const digest = smtp.received[0]
    if (!digest || !held) throw new Error('no digest')
    expect(digest.envelopeTo).toEqual(['leads@modernwerk.example'])
    expect(digest.mail.subject).toBe(
      '[Website] 2 held-back messages to review (1 may be from a person)',
    )
    // A reply goes to the company, never to a sender of a held-back post.
    expect(digest.raw).not.toMatch(/^Reply-To:.*(wisniewska|offers)/im)
    const text = digest.mail.text ?? ''
    expect(text).toContain(message.message)
    expect(text).toContain('sent sooner after the form was opened than a person usually types')
    expect(text).toContain(`$ node server/cli/contact-quarantine.ts release ${held.id}`)
    expect(text.indexOf(message.message)).toBeLessThan(text.indexOf('Best Offers'))
    expect(digest.mail.html).toContain('Dzień dobry, chcielibyśmy przenieść')

    // Once a day: a later check, or another replica's, queues nothing more.
    expect(await app.quarantineDigest?.run(new Date(tomorrow().getTime() + 600_000))).toBe(
      'alreadyQueued',
    )
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(smtp.received).toHaveLength(1)
    expect(await metric(app, 'contact_quarantine_digests_total{outcome="queued"}')).toBe(1)
  })

  it('sends nothing on a day nothing was held back', async () => {
    app = await site()
    expect(await app.quarantineDigest?.run(tomorrow())).toBe('nothing')
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(smtp.received).toHaveLength(0)
    expect(await metric(app, 'contact_quarantine_digests_total{outcome="nothing"}')).toBe(1)
  })

  it('is off only when told so (QUARANTINE_DIGEST_AT=off), and without a quarantine', async () => {
    // On unless told: the site's default, every morning at eight.
    expect(loadConfig({}).QUARANTINE_DIGEST_AT).toBe('08:00')
    app = await site({ QUARANTINE_DIGEST_AT: 'off' })
    expect(app.quarantineDigest).toBeNull()
    await app.close()
    app = await site({ QUARANTINE_DAYS: '0' })
    expect(app.quarantineDigest).toBeNull()
    await app.close()
    app = await site()
    expect(app.quarantineDigest).not.toBeNull()
  })
})
