import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import fc from 'fast-check'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { TOKENS_PER_MESSAGE } from '#server/routes/contact.ts'
import { dueSummary } from '#server/services/insight/insight-summary.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import { eventually } from '#tests/helpers/eventually.ts'
import { fullDisk } from '#tests/helpers/full-disk.ts'
import { withToken } from '#tests/helpers/form-token.ts'
import { sampleIn } from '#tests/helpers/metrics.ts'
import { startSmtpServer } from '#tests/helpers/smtp.ts'

const LOCALES_DIR = join(import.meta.dirname, '../../../locales')

const VALID = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  company: 'Analytical Engines Ltd',
  service: 'cloud',
  subject: 'Moving our ERP to Germany',
  message: 'We would like to move our ERP servers to a German data centre this year.',
  locale: 'en',
}

let smtp: Awaited<ReturnType<typeof startSmtpServer>>
let outboxDir: string
let app: FastifyInstance

async function freshApp(env: Record<string, string> = {}) {
  outboxDir = mkdtempSync(join(tmpdir(), 'outbox-'))
  return buildTestApp(
    {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Website <website@modernwerk.example>',
      MAIL_TO: 'leads@modernwerk.example',
      OUTBOX_DIR: outboxDir,
      CONTACT_RATE_MAX: '1000',
      ...env,
    },
    { deliveryPollMs: 100, firstRetryMs: 100 },
  )
}

/** A post as a person's form sends it, with its token (the spam defence is contact-spam's). */
async function post(
  body: unknown,
  headers: Record<string, string> = {},
  remoteAddress = '203.0.113.7',
) {
  const isString = typeof body === 'string'
  const type = headers['content-type'] ?? (isString ? FORM_TYPE : 'application/json')
  const signed =
    typeof body === 'object' && body !== null
      ? await withToken(body)
      : type === FORM_TYPE
        ? await withToken(String(body))
        : body
  return app.inject({
    method: 'POST',
    url: '/api/contact',
    remoteAddress,
    headers: { 'content-type': type, ...headers },
    payload: typeof signed === 'string' ? signed : JSON.stringify(signed),
  })
}

const FORM_TYPE = 'application/x-www-form-urlencoded'

/** A sample's value on /metrics (`name` with its labels, as the exposition writes it). */
async function gauge(sample: string): Promise<number> {
  const value = await sampleValue(sample)
  if (value === undefined) throw new Error(`no ${sample} on /metrics`)
  return value
}

/** A sample's value, or undefined while /metrics has no such line (a counter not counted yet). */
async function sampleValue(sample: string): Promise<number | undefined> {
  return sampleIn((await app.inject({ method: 'GET', url: '/metrics' })).body, sample)
}

/** Failed delivery attempts so far (0 before the first). */
async function failedAttempts(): Promise<number> {
  return (await sampleValue('contact_deliveries_total{result="failed"}')) ?? 0
}

beforeAll(async () => {
  smtp = await startSmtpServer()
})

afterAll(async () => {
  await smtp.stop()
})

afterEach(async () => {
  await app.close()
  rmSync(outboxDir, { recursive: true, force: true })
  smtp.received.length = 0
})

describe('delivery', () => {
  it.each([
    ['en', 'Contact request'],
    ['de', 'Kontaktanfrage'],
    ['pl', 'Zapytanie kontaktowe'],
  ])('a JSON submission in %s reaches the inbox', async (locale, prefix) => {
    app = await freshApp()
    const response = await post({ ...VALID, locale })
    expect(response.statusCode).toBe(202)
    const { id } = response.json<{ status: string; id: string }>()
    await eventually(() => smtp.received.length === 1)
    const [{ mail, envelopeTo }] = smtp.received as [(typeof smtp.received)[number]]
    expect(envelopeTo).toEqual(['leads@modernwerk.example'])
    expect(mail.from?.value[0]).toMatchObject({
      name: 'Website',
      address: 'website@modernwerk.example',
    })
    expect(mail.replyTo?.value[0]).toMatchObject({ name: VALID.name, address: VALID.email })
    expect(mail.subject).toContain(prefix)
    expect(mail.subject).toContain(VALID.subject)
    expect(mail.text).toContain(VALID.message)
    expect(mail.text).toContain(VALID.company)
    expect(mail.html).toContain(VALID.message)
    expect(mail.headers.get('x-contact-id')).toBe(id)
    expect(mail.messageId).toBe(`<${id}@modernwerk.example>`)
    // Delivered means gone from the outbox (removed right after the server's acceptance).
    await eventually(async () => (await app.contact.outbox.size()) === 0)
  })

  it.each(['en', 'de', 'pl'] as const)(
    'the lead in %s is a complete MIME document: text, a whole HTML page, Date and Message-ID',
    async (locale) => {
      app = await freshApp()
      const sentAt = Date.now()
      const response = await post({ ...VALID, locale, message: `${VALID.message}\n<b>&</b>` })
      const { id } = response.json<{ id: string }>()
      await eventually(() => smtp.received.length === 1)
      const [{ raw, mail }] = smtp.received as [(typeof smtp.received)[number]]
      const head = raw.slice(0, raw.indexOf('\r\n\r\n'))
      // A text part and an HTML part of the same message, both UTF-8.
      expect(head).toMatch(/^Content-Type: multipart\/alternative;/m)
      expect(raw).toMatch(/^Content-Type: text\/plain; charset=utf-8\r$/m)
      expect(raw).toMatch(/^Content-Type: text\/html; charset=utf-8\r$/m)
      expect(head).toMatch(/^MIME-Version: 1\.0\r$/m)
      expect(head).toMatch(new RegExp(`^Message-ID: <${id}@modernwerk\\.example>\\r$`, 'm'))
      // When it was sent, as the header says it (RFC 5322 date-time).
      expect(head).toMatch(/^Date: \w{3}, \d{1,2} \w{3} \d{4} \d\d:\d\d:\d\d [+-]\d{4}\r$/m)
      expect(Math.abs((mail.date?.getTime() ?? 0) - sentAt)).toBeLessThan(60_000)
      expect(mail.headers.get('x-contact-id')).toBe(id)

      const html = mail.html || ''
      expect(html).toMatch(
        /^<!doctype html>\n<html lang="([a-z]+)">\n<head>\n<meta charset="utf-8">/,
      )
      expect(html).toContain(`<html lang="${locale}">`)
      // The title is the subject, escaped like everything a visitor wrote.
      const title = /<title>([^<]*)<\/title>/.exec(html)?.[1]
      expect(title?.replaceAll('&amp;', '&')).toBe(mail.subject)
      expect(html).toMatch(/<\/head>\n<body[ >][\s\S]*<\/body>\n<\/html>\n?$/)
      expect(html).toContain('&lt;b&gt;&amp;&lt;/b&gt;')
      // Nothing loaded from elsewhere, nothing that runs.
      expect(html).not.toMatch(/<(script|img|link|iframe|object|style)\b|\bsrc=|\bon\w+=/i)
      expect(mail.text).toContain('<b>&</b>')
    },
  )

  it('UTF-8 names arrive as RFC 2047 encoded-words in From and Reply-To and decode exactly', async () => {
    const sender = 'Modernwerk – Anfragen über die Website'
    app = await freshApp({ MAIL_FROM: `${sender} <website@modernwerk.example>` })
    await post({ ...VALID, name: 'Zażółć Gęślą', locale: 'pl' })
    await post({
      ...VALID,
      name: 'Jürgen Müller',
      locale: 'de',
      message: `${VALID.message} Danke.`,
    })
    await eventually(() => smtp.received.length === 2)
    for (const { raw, mail } of smtp.received) {
      const head = raw.slice(0, raw.indexOf('\r\n\r\n'))
      // Headers are ASCII: every non-ASCII name is an encoded-word.
      expect(head).toMatch(/^[\x20-\x7e\r\n\t]*$/)
      expect(head).toMatch(/^From: =\?UTF-8\?[QB]\?\S+\?=/m)
      expect(head).toMatch(/^Reply-To: =\?UTF-8\?[QB]\?\S+\?=/m)
      expect(mail.from?.value).toMatchObject([
        { name: sender, address: 'website@modernwerk.example' },
      ])
    }
    const replyTo = smtp.received
      .map(({ mail }) => mail.replyTo?.value[0])
      .sort((a, b) => (a?.name ?? '').localeCompare(b?.name ?? ''))
    expect(replyTo).toMatchObject([
      { name: 'Jürgen Müller', address: VALID.email },
      { name: 'Zażółć Gęślą', address: VALID.email },
    ])
  })

  it('counts outcomes and deliveries in /metrics', async () => {
    app = await freshApp()
    await post(VALID)
    await post({ ...VALID, name: 'A' })
    await eventually(() => smtp.received.length === 1)
    // Counted once the SMTP server's acceptance came back and the file was removed, which on
    // a busy machine can be a while after the server recorded the message.
    await eventually(
      async () =>
        (await sampleValue('contact_deliveries_total{result="delivered"}')) === 1 &&
        (await gauge('contact_outbox_depth')) === 0,
    )
    const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body
    expect(metrics).toContain('contact_submissions_total{outcome="accepted"} 1')
    expect(metrics).toContain('contact_submissions_total{outcome="invalid"} 1')
    expect(metrics).toContain('contact_deliveries_total{result="delivered"} 1')
    expect(metrics).toContain('contact_outbox_depth 0')
    // Never what visitors wrote.
    expect(metrics).not.toContain(VALID.email)
  })

  it('a plain form post is delivered and answered with 303 to the success state', async () => {
    app = await freshApp()
    const form = new URLSearchParams({ ...VALID, locale: 'de', form: 'contact' }).toString()
    const response = await post(form)
    expect(response.statusCode).toBe(303)
    expect(response.headers.location).toBe('/de/contact?sent=contact')
    await eventually(() => smtp.received.length === 1)
    expect(smtp.received[0]?.mail.subject).toContain('Kontaktanfrage')
  })

  it('the home form without a subject is delivered with the service as subject', async () => {
    app = await freshApp()
    const home = new URLSearchParams({ ...VALID, form: 'home' })
    home.delete('subject')
    const response = await post(home.toString())
    expect(response.statusCode).toBe(303)
    expect(response.headers.location).toBe('/?sent=home')
    await eventually(() => smtp.received.length === 1)
    expect(smtp.received[0]?.mail.subject).toBe('[Website] Contact request: Cloud Infrastructure')
  })

  it('the honeypot gets the same answer and nothing is delivered', async () => {
    app = await freshApp()
    const response = await post({ ...VALID, website: 'http://spam.example' })
    expect(response.statusCode).toBe(202)
    expect(response.json()).toMatchObject({ status: 'accepted' })
    await new Promise((resolve) => setTimeout(resolve, 400))
    expect(smtp.received).toHaveLength(0)
    expect(await app.contact.outbox.size()).toBe(0)
  })
})

// A relay may take 10 minutes to answer the end of DATA (RFC 5321 §4.5.3.2.6), and has the
// message as soon as its data ended: a send given up on earlier is a copy when it is retried.
// Bounds generous for a busy machine; nothing here measures how fast.
describe('a relay that answers the end of DATA 7 s late', { timeout: 60_000 }, () => {
  const SLOW_MS = 7_000

  afterEach(() => {
    smtp.answerAfter(0)
  })

  it('gets the lead once, and it is delivered, not retried', async () => {
    app = await freshApp()
    smtp.answerAfter(SLOW_MS)
    expect((await post(VALID)).statusCode).toBe(202)
    await eventually(() => smtp.received.length === 1)
    // Delivered once the late answer came (counted after its file is removed): nothing is left
    // to send again.
    await eventually(
      async () =>
        (await sampleValue('contact_deliveries_total{result="delivered"}')) === 1 &&
        (await app.contact.outbox.size()) === 0,
      30_000,
    )
    expect(await failedAttempts()).toBe(0)
    expect(smtp.received).toHaveLength(1)
  })

  it('closing the app waits for its answer, starts no other send, and leaves the rest for the next process', async () => {
    app = await freshApp()
    smtp.answerAfter(SLOW_MS)
    const first = await post({ ...VALID, subject: 'Slow relay first' })
    await eventually(() => smtp.received.length === 1)
    // The relay has the first lead and has not answered yet; a second one comes in.
    const second = await post({
      ...VALID,
      subject: 'Slow relay second',
      message: `${VALID.message} And a second question.`,
    })
    const [firstId, secondId] = [first, second].map(
      (response) => response.json<{ id: string }>().id,
    )
    await app.close()
    expect(smtp.received.map(({ mail }) => mail.subject)).toEqual([
      '[Website] Contact request: Slow relay first',
    ])
    // The first is delivered (its file removed after the answer); the second waits untried.
    const files = readdirSync(outboxDir).filter((name) => name.endsWith('.json'))
    expect(files).toEqual([
      expect.stringMatching(new RegExp(`^${secondId}\\.\\d+\\.0\\.0\\.json$`)),
    ])
    expect(files.join()).not.toContain(firstId)

    // The next process sends the second, and only the second.
    smtp.answerAfter(0)
    app = await buildTestApp(
      { SMTP_URL: smtp.url, OUTBOX_DIR: outboxDir, MAIL_TO: 'leads@modernwerk.example' },
      { deliveryPollMs: 100, firstRetryMs: 100 },
    )
    await eventually(async () => (await app.contact.outbox.size()) === 0, 30_000)
    expect(smtp.received.map(({ mail }) => mail.subject)).toEqual([
      '[Website] Contact request: Slow relay first',
      '[Website] Contact request: Slow relay second',
    ])
  })
})

/** What the lead e-mail says of a package: its name as the Managed IT page shows it. */
function planLine(locale: 'en' | 'de' | 'pl', plan: 'base' | 'standard' | 'enterprise') {
  const read = (namespace: string) =>
    JSON.parse(readFileSync(join(LOCALES_DIR, locale, `${namespace}.json`), 'utf8')) as {
      plan: string
      tiers: { items: Record<string, { package: string; name: string }> }
    }
  const tier = read('service-managed-it').tiers.items[plan]
  // The typography binds the space before the dash (shared/typography.ts).
  return `${read('mail').plan}: ${tier?.package}\u00a0– ${tier?.name}`
}

describe('the chosen package', () => {
  it.each([
    ['en', 'base'],
    ['de', 'standard'],
    ['pl', 'enterprise'],
  ] as const)('heads the lead e-mail (%s, %s) from a plain form post', async (locale, plan) => {
    app = await freshApp()
    const form = new URLSearchParams({
      ...VALID,
      service: 'managed',
      plan,
      locale,
      form: 'contact',
    })
    expect((await post(form.toString())).statusCode).toBe(303)
    await eventually(() => smtp.received.length === 1)
    const mail = smtp.received[0]?.mail
    expect(mail?.text?.split('\n')[0]).toBe(planLine(locale, plan))
    // The first thing in the HTML document's body.
    expect(mail?.html).toMatch(new RegExp(`<body[^>]*>\\s*<h2>${planLine(locale, plan)}</h2>`))
  })

  it('is submitted as JSON too, and a message without one has no such line', async () => {
    app = await freshApp()
    await post({ ...VALID, plan: 'standard' })
    // Another text: the same one again would be marked as repeated (contact-spam.test.ts).
    await post({ ...VALID, message: `${VALID.message} We have not chosen a package yet.` })
    await eventually(() => smtp.received.length === 2)
    const texts = smtp.received.map(({ mail }) => mail.text ?? '')
    expect(texts.filter((text) => text.startsWith(planLine('en', 'standard')))).toHaveLength(1)
    expect(texts.filter((text) => text.startsWith('Name: Ada Lovelace'))).toHaveLength(1)
  })

  it('is preselected by the link of a package, and kept when a plain post is shown again', async () => {
    app = await freshApp()
    const page = await app.inject('/de/contact?service=managed&plan=enterprise')
    expect(page.body).toMatch(/<option value="enterprise" selected="">/)
    // Optional, so it can be set back to none.
    expect(page.body).toMatch(/<select[^>]*name="plan"[^>]*>(?:(?!<\/select>).)*<option value="">/s)
    const form = new URLSearchParams({ ...VALID, name: '', plan: 'base', form: 'contact' })
    const again = await post(form.toString())
    expect(again.statusCode).toBe(400)
    expect(again.body).toMatch(/<option value="base" selected="">/)
  })
})

describe('what could disguise a message', () => {
  it('bidi overrides, isolates and zero-width characters are removed from name and subject', async () => {
    app = await freshApp()
    const response = await post({
      ...VALID,
      name: 'Eve \u202Eexe.fdp\u202C Example',
      subject: 'Invoice\u200B \u2066overdue\u2069\uFEFF',
    })
    expect(response.statusCode).toBe(202)
    await eventually(() => smtp.received.length === 1)
    const mail = smtp.received[0]?.mail
    expect(mail?.subject).toBe('[Website] Contact request: Invoice overdue')
    expect(mail?.replyTo?.value[0]?.name).toBe('Eve exe.fdp Example')
    expect(mail?.text).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200B-\u200D\u2060\uFEFF]/u)
  })

  // RFC 2047 encoded words a visitor types: a mail program would decode them (here mailparser,
  // as lenient as they are), so the mail carries them encoded and they arrive as typed.
  it('an encoded word typed into name or subject arrives as typed: no reversed file name', async () => {
    app = await freshApp()
    const name = 'Eve =?UTF-8?B?4oCuZmRwLmV4ZQ==?='
    const subject = 'Invoice =?UTF-8?Q?=E2=80=AEfdp.exe?= attached'
    expect((await post({ ...VALID, name, subject })).statusCode).toBe(202)
    await eventually(() => smtp.received.length === 1)
    const mail = smtp.received[0]?.mail
    // The name in the rows as typed; Reply-To the address alone.
    expect(mail?.replyTo?.value[0]).toEqual({ name: '', address: VALID.email })
    expect(mail?.text).toContain(`Name: ${name}`)
    expect(mail?.subject).toBe(`[Possible spam] [Website] Contact request: ${subject}`)
    expect(mail?.text).toContain(
      'Signs of spam: encoded text (=?…?=) in the name, company or subject, shown as typed',
    )
    expect(`${mail?.subject ?? ''}${mail?.replyTo?.text ?? ''}`).not.toContain('\u202E')
  })

  it('a link hidden in an encoded word in the name is a link in the name', async () => {
    app = await freshApp()
    const name = 'Eve =?UTF-8?Q?www=2Espam=2Eexample?='
    expect((await post({ ...VALID, name })).statusCode).toBe(202)
    await eventually(() => smtp.received.length === 1)
    const mail = smtp.received[0]?.mail
    expect(mail?.replyTo?.value[0]?.name).toBe('')
    expect(mail?.text).toContain(`Name: ${name}`)
    expect(mail?.text).toContain('a link in the name or company; encoded text (=?…?=)')
  })
})

describe('ids no post can take', () => {
  it("refuses a submission id that is not a version 4 UUID, such as the weekly summary's", async () => {
    app = await freshApp()
    const summaryId = dueSummary(new Date('2026-11-30T07:00:00Z')).id
    for (const id of [summaryId, '6f9c1c3e-5c0e-1bb4-9a1e-2c1b7d6f0a11']) {
      const response = await post({ ...VALID, id })
      expect(response.statusCode).toBe(400)
      // No field of the form: the form's own ids are version 4 (`crypto.randomUUID`).
      expect(response.json()).toEqual({ status: 'invalid', errors: {} })
    }
    const accepted = await post({ ...VALID, id: '6f9c1c3e-5c0e-4bb4-9a1e-2c1b7d6f0a11' })
    expect(accepted.json()).toEqual({
      status: 'accepted',
      id: '6f9c1c3e-5c0e-4bb4-9a1e-2c1b7d6f0a11',
    })
  })
})

describe('validation', () => {
  it.each([
    ['name', 'A', 'tooShort'],
    ['name', 'x'.repeat(101), 'tooLong'],
    ['name', 'Ada\r\nBcc: victim@example.com', 'controlCharacters'],
    ['email', 'not-an-address', 'invalidEmail'],
    ['email', `${'a'.repeat(250)}@example.com`, 'tooLong'],
    ['company', 'c'.repeat(151), 'tooLong'],
    ['service', 'consulting', 'invalidOption'],
    ['service', 42, 'invalidOption'],
    ['subject', 'Hi', 'tooShort'],
    ['subject', 's'.repeat(151), 'tooLong'],
    ['subject', 'Hello\r\nBcc: victim@example.com', 'controlCharacters'],
    ['message', 'Too short', 'tooShort'],
    ['message', 'm'.repeat(5001), 'tooLong'],
    ['message', 'Null byte \u0000 inside the message', 'controlCharacters'],
    ['name', ['Ada'], 'required'],
    ['name', '\u202E\u200B\u2066', 'required'],
    ['plan', 'gold', 'invalidOption'],
  ])('%s = %j is refused as %s', async (field, value, code) => {
    app = await freshApp()
    const response = await post({ ...VALID, [field]: value })
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({ status: 'invalid', errors: { [field]: code } })
    expect(await app.contact.outbox.size()).toBe(0)
  })

  it('accepts the bounds exactly and a message with line breaks', async () => {
    app = await freshApp()
    const response = await post({
      ...VALID,
      name: 'Al',
      subject: 'Hey',
      company: 'c'.repeat(150),
      message: `Line one\nLine two\r\n\tindented ${'m'.repeat(4970)}`,
    })
    expect(response.statusCode).toBe(202)
  })

  it('refuses what is missing, with every field named', async () => {
    app = await freshApp()
    const response = await post({})
    expect(response.statusCode).toBe(400)
    expect(response.json()).toEqual({
      status: 'invalid',
      errors: {
        name: 'required',
        email: 'required',
        service: 'invalidOption',
        message: 'required',
      },
    })
  })

  it('answers 413 over the body limit and 415 for other types', async () => {
    app = await freshApp()
    const big = await post({ ...VALID, message: 'x'.repeat(40_000) })
    expect(big.statusCode).toBe(413)
    const text = await post('name=x', { 'content-type': 'text/plain' })
    expect(text.statusCode).toBe(415)
    const broken = await post('{"name":', { 'content-type': 'application/json' })
    expect(broken.statusCode).toBe(400)
  })

  it('never answers 5xx to random bodies', async () => {
    app = await freshApp()
    const field = fc.oneof(
      fc.string(),
      fc.integer(),
      fc.constant(null),
      fc.array(fc.string()),
      fc.object(),
    )
    await fc.assert(
      fc.asyncProperty(
        fc.record(
          {
            name: field,
            email: fc.oneof(fc.emailAddress(), field),
            company: field,
            service: fc.oneof(fc.constantFrom('cloud', 'api', 'other'), field),
            subject: field,
            message: fc.oneof(fc.string({ minLength: 10 }), field),
            locale: fc.oneof(fc.constantFrom('en', 'de', 'pl'), field),
            website: fc.oneof(fc.constant(''), field),
          },
          { requiredKeys: [] },
        ),
        async (body) => {
          const response = await post(body)
          expect(response.statusCode).toBeLessThan(500)
        },
      ),
      { numRuns: 150 },
    )
  })
})

describe('rate limit', () => {
  it('answers the 6th request in the window with 429 and Retry-After, per client IP', async () => {
    app = await freshApp({ CONTACT_RATE_MAX: '5', CONTACT_RATE_WINDOW: '15 minutes' })
    for (let attempt = 1; attempt <= 5; attempt++) {
      expect((await post(VALID)).statusCode).toBe(202)
    }
    const limited = await post(VALID)
    expect(limited.statusCode).toBe(429)
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(800)
    expect(limited.json()).toMatchObject({ status: 'rateLimited' })
    expect((await post(VALID, {}, '198.51.100.23')).statusCode).toBe(202)
  })

  it('counts every post, those the spam defence answers before reading the message too', async () => {
    app = await freshApp({ CONTACT_RATE_MAX: '3', CONTACT_RATE_WINDOW: '15 minutes' })
    const plain = (body: Record<string, string>) =>
      app.inject({
        method: 'POST',
        url: '/api/contact',
        remoteAddress: '203.0.113.7',
        headers: { 'content-type': 'application/json' },
        payload: JSON.stringify(body),
      })
    // A forged token and a filled honeypot: each gets an answer, and each counts.
    expect((await plain({ ...VALID, token: '2.x.forged' })).statusCode).toBe(202)
    expect((await post({ ...VALID, website: 'https://spam.example' })).statusCode).toBe(202)
    expect((await post(VALID)).statusCode).toBe(202)
    const limited = await plain({ ...VALID, token: '2.x.forged' })
    expect(limited.statusCode).toBe(429)
    expect((await post(VALID)).statusCode).toBe(429)
  })

  it('gives each client IP as many form tokens as the privacy policy states, then 429', async () => {
    app = await freshApp({ CONTACT_RATE_MAX: '2', CONTACT_RATE_WINDOW: '15 minutes' })
    const token = (remoteAddress: string) =>
      app.inject({
        method: 'GET',
        url: '/api/contact/token?form=contact&locale=de',
        remoteAddress,
      })
    const { tokenMax } = app.policyFacts.rateLimit
    expect(tokenMax).toBe(2 * TOKENS_PER_MESSAGE)
    for (let request = 1; request <= tokenMax; request++) {
      expect((await token('203.0.113.7')).statusCode).toBe(200)
    }
    const limited = await token('203.0.113.7')
    expect(limited.statusCode).toBe(429)
    expect(limited.json()).toMatchObject({ status: 'rateLimited' })
    expect(Number(limited.headers['retry-after'])).toBeGreaterThan(800)
    expect((await token('198.51.100.23')).statusCode).toBe(200)
    // Not a refused message: the form sends with its page's token, and its posts still count
    // on their own budget.
    expect((await sampleValue('contact_submissions_total{outcome="rateLimited"}')) ?? 0).toBe(0)
    expect((await post(VALID)).statusCode).toBe(202)
    const page = await app.inject({ method: 'GET', url: '/de/privacy-policy' })
    expect(page.body).toContain(`höchstens ${tokenMax} davon`)
  })

  it('uses the client address from X-Forwarded-For only behind a trusted proxy', async () => {
    app = await freshApp({ CONTACT_RATE_MAX: '1', TRUST_PROXY: '127.0.0.1/32' })
    const viaProxy = (client: string) => post(VALID, { 'x-forwarded-for': client }, '127.0.0.1')
    expect((await viaProxy('192.0.2.1')).statusCode).toBe(202)
    expect((await viaProxy('192.0.2.2')).statusCode).toBe(202)
    expect((await viaProxy('192.0.2.1')).statusCode).toBe(429)
    // An untrusted sender cannot choose its key.
    expect((await post(VALID, { 'x-forwarded-for': '192.0.2.9' }, '203.0.113.50')).statusCode).toBe(
      202,
    )
    expect(
      (await post(VALID, { 'x-forwarded-for': '192.0.2.10' }, '203.0.113.50')).statusCode,
    ).toBe(429)
  })
})

// Waits for retries whose delays double (100 ms, 200 ms, …): the longer a busy machine keeps
// SMTP down, the longer the next attempt after it is back. Bounds and timeout to match.
describe('outage', { timeout: 60_000 }, () => {
  it('keeps messages while SMTP is down, across a restart, and delivers each exactly once', async () => {
    app = await freshApp()
    await smtp.stop()
    for (const locale of ['en', 'de', 'pl']) {
      expect((await post({ ...VALID, locale, subject: `Outage test ${locale}` })).statusCode).toBe(
        202,
      )
    }
    // Every message tried and failed at least once (not a fixed wait that may see no attempt).
    await eventually(async () => (await failedAttempts()) >= 3)
    expect(await app.contact.outbox.size()).toBe(3)

    // The process goes away and comes back with the same outbox.
    await app.close()
    app = await buildTestApp(
      { SMTP_URL: smtp.url, OUTBOX_DIR: outboxDir, MAIL_TO: 'leads@modernwerk.example' },
      { deliveryPollMs: 100, firstRetryMs: 100 },
    )
    expect(await app.contact.outbox.size()).toBe(3)

    await smtp.start()
    await eventually(() => smtp.received.length >= 3, 30_000)
    // Removed from the outbox once the server's acceptance is back: then nothing is left to send.
    await eventually(async () => (await app.contact.outbox.size()) === 0)
    await new Promise((resolve) => setTimeout(resolve, 500)) // no late duplicates
    expect(smtp.received.map(({ mail }) => mail.subject?.split(': ')[1]).sort()).toEqual([
      'Outage test de',
      'Outage test en',
      'Outage test pl',
    ])
  })

  it('shows on /metrics how long the oldest message has waited while SMTP is down', async () => {
    app = await freshApp()
    await smtp.stop()
    try {
      expect(await gauge('contact_oldest_undelivered_age_seconds')).toBe(0)
      expect(await gauge('contact_delivery_configured')).toBe(1)
      expect((await post(VALID)).statusCode).toBe(202)
      await new Promise((resolve) => setTimeout(resolve, 400))
      const first = await gauge('contact_oldest_undelivered_age_seconds')
      await new Promise((resolve) => setTimeout(resolve, 1_000))
      const later = await gauge('contact_oldest_undelivered_age_seconds')
      expect(first).toBeGreaterThan(0.3)
      expect(later - first).toBeGreaterThan(0.9)
      // The attempt may come late on a busy machine; it must come.
      await eventually(async () => (await failedAttempts()) > 0)
    } finally {
      await smtp.start()
    }
    await eventually(() => smtp.received.length === 1, 30_000)
    await eventually(async () => (await gauge('contact_oldest_undelivered_age_seconds')) === 0)
  })

  it('without SMTP_URL says that nothing is sent while the message waits', async () => {
    app = await freshApp({ SMTP_URL: '' })
    expect(await gauge('contact_delivery_configured')).toBe(0)
    expect((await post(VALID)).statusCode).toBe(202)
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect(await gauge('contact_oldest_undelivered_age_seconds')).toBeGreaterThan(0.2)
  })

  it('answers 503 with Retry-After when the outbox cannot be written, and keeps the pages in service', async () => {
    app = await freshApp({ OUTBOX_DIR: '/dev/null/outbox' })
    const response = await post(VALID)
    expect(response.statusCode).toBe(503)
    expect(response.headers['retry-after']).toBe('60')
    expect(response.json()).toEqual({ status: 'error' })
    // A browser without JavaScript gets its form back with what it typed and "try later".
    const form = await post(new URLSearchParams({ ...VALID, form: 'contact' }).toString())
    expect(form.statusCode).toBe(503)
    expect(form.body).toContain(VALID.message)
    expect(form.body).toContain('Please try again later.')
    // The site serves its pages, and says on /metrics that leads cannot be stored.
    expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200)
    expect((await app.inject({ method: 'GET', url: '/de/services' })).statusCode).toBe(200)
    expect(await gauge('contact_store_writable')).toBe(0)
  })

  it.skipIf(!fullDisk.isPossible)(
    'answers a full disk with the same 503 before anything is accepted, leaving no .tmp files',
    async () => {
      const disk = fullDisk.mount()
      try {
        app = await freshApp({ OUTBOX_DIR: disk.dir })
        expect(await gauge('contact_store_writable')).toBe(1)
        disk.fill()
        expect(await gauge('contact_store_writable')).toBe(0)
        const response = await post(VALID)
        expect(response.statusCode).toBe(503)
        expect(response.headers['retry-after']).toBe('60')
        expect(readdirSync(disk.dir).filter((name) => name.endsWith('.tmp'))).toEqual([])
        expect(await app.contact.outbox.size()).toBe(0)
        expect((await app.inject({ method: 'GET', url: '/readyz' })).statusCode).toBe(200)
        // Room again: the same message is accepted and delivered.
        disk.free()
        expect((await post(VALID)).statusCode).toBe(202)
        await eventually(() =>
          smtp.received.some((mail) => mail.mail.text?.includes(VALID.message)),
        )
      } finally {
        await app.close()
        disk.unmount()
      }
    },
  )
})
