import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { INSIGHT_SUMMARY_KIND, summaryData } from '#server/services/insight/index.ts'
import { buildTestApp, serverErrors } from '#tests/helpers/build-test-app.ts'
import {
  dkimKeyPair,
  dkimRecord,
  HAS_PYTHON_DKIM,
  PYTHON,
  verifyDkim,
} from '#tests/helpers/dkim.ts'
import { eventually } from '#tests/helpers/eventually.ts'
import { withToken } from '#tests/helpers/form-token.ts'
import { startSmtpServer, type ReceivedMail } from '#tests/helpers/smtp.ts'

/**
 * DKIM signing (docs/contact.md#reaching-the-inbox-the-mail-dkim-and-a-spam-filters-view): with
 * DKIM_* set, the mails the site sends arrive at a real SMTP server signed, and an independent
 * verifier (Debian's python3-dkim) accepts the signature with the public key as the TXT record
 * would publish it; a mail changed after signing fails.
 */

if (!HAS_PYTHON_DKIM) {
  console.warn(`${PYTHON} has no dkim module (apt-get install python3-dkim): DKIM not verified`)
}

const SELECTOR = 'web2026'
const { privateKeyPem, publicKey } = dkimKeyPair()
const RECORD = dkimRecord(publicKey)

const LEAD = {
  name: 'Jürgen Müller',
  email: 'j.mueller@maschinenbau-suessmuth.de',
  company: 'Maschinenbau Süßmuth GmbH',
  service: 'modernization',
  subject: 'Ablösung unserer Warenwirtschaft',
  message:
    'Sehr geehrte Damen und Herren,\n\nunsere Warenwirtschaft läuft seit 1998 auf einer AS/400. Können Sie uns bei der Ablösung unterstützen?\n\nMit freundlichen Grüßen\nJürgen Müller',
  locale: 'de',
  form: 'contact',
}

describe.skipIf(!HAS_PYTHON_DKIM)('DKIM-signed mails', () => {
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>
  let app: FastifyInstance | undefined
  let dir: string

  beforeAll(async () => {
    dir = mkdtempSync(join(tmpdir(), 'dkim-'))
    smtp = await startSmtpServer()
  })

  afterEach(async () => {
    await app?.close()
    app = undefined
    smtp.received.length = 0
  })

  afterAll(async () => {
    await smtp.stop()
    rmSync(dir, { recursive: true, force: true })
  })

  async function site(env: Record<string, string>) {
    app = await buildTestApp(
      {
        SMTP_URL: smtp.url,
        MAIL_TO: 'kontakt@modernwerk.example',
        DKIM_SELECTOR: SELECTOR,
        ...env,
      },
      { deliveryPollMs: 100, firstRetryMs: 100 },
    )
    return app
  }

  async function lead(site: FastifyInstance, message = LEAD.message): Promise<ReceivedMail> {
    const response = await site.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      payload: JSON.stringify(await withToken({ ...LEAD, message })),
    })
    expect(response.statusCode, serverErrors(site)).toBe(202)
    const { id } = response.json<{ id: string }>()
    const received = () => smtp.received.find(({ mail }) => mail.headers.get('x-contact-id') === id)
    await eventually(() => received() !== undefined)
    const mail = received()
    if (!mail) throw new Error(`lead ${id} not received`)
    return mail
  }

  /** The DKIM-Signature header's tags: `d`, `s`, `a`, `h`, … */
  function signatureTags(raw: string): Record<string, string> {
    const header = /^DKIM-Signature: ((?:.*\r\n[ \t].*)*.*)\r\n/m.exec(raw)?.[1] ?? ''
    return Object.fromEntries(
      header
        .replace(/\s+/g, '')
        .split(';')
        .filter(Boolean)
        .map((tag) => [tag.slice(0, tag.indexOf('=')), tag.slice(tag.indexOf('=') + 1)]),
    )
  }

  it('a lead verifies with the published key; one byte changed after signing fails', async () => {
    const domain = 'modernwerk.example'
    const { raw } = await lead(
      await site({
        MAIL_FROM: 'Modernwerk – Anfragen über die Website <website@modernwerk.example>',
        DKIM_DOMAIN: domain,
        DKIM_PRIVATE_KEY: privateKeyPem,
      }),
    )
    const tags = signatureTags(raw)
    expect(tags).toMatchObject({ v: '1', a: 'rsa-sha256', d: domain, s: SELECTOR })
    // What a forger would change is covered: sender, reply address, subject, date, id, body.
    expect(tags.h?.toLowerCase().split(':')).toEqual(
      expect.arrayContaining(['from', 'reply-to', 'subject', 'date', 'message-id', 'to']),
    )
    expect(tags.h?.toLowerCase().split(':')).toEqual(
      expect.arrayContaining(['mime-version', 'content-type']),
    )

    const result = await verifyDkim(raw, { record: RECORD, selector: SELECTOR, domain })
    expect(result.isValid, result.log).toBe(true)
    expect(result.asked).toEqual([`${SELECTOR}._domainkey.${domain}.`])

    // One byte of the body: "Warenwirtschaft" becomes "Warenwirtschaff" in the text part.
    const bodyStart = raw.indexOf('\r\n\r\n')
    const at = raw.indexOf('Warenwirtschaft', bodyStart) + 'Warenwirtschaf'.length
    expect(at).toBeGreaterThan(bodyStart + 'Warenwirtschaf'.length)
    const changed = `${raw.slice(0, at)}f${raw.slice(at + 1)}`
    expect(changed).toHaveLength(raw.length)
    const tampered = await verifyDkim(changed, { record: RECORD, selector: SELECTOR, domain })
    expect(tampered.isValid, tampered.log).toBe(false)
    expect(tampered.log).toMatch(/body hash mismatch/i)

    // A header changed after signing fails too.
    const resubjected = raw.replace(/^Subject: .*(\r\n[ \t].*)*/m, 'Subject: Rechnung')
    expect(resubjected).not.toBe(raw)
    const reheaded = await verifyDkim(resubjected, { record: RECORD, selector: SELECTOR, domain })
    expect(reheaded.isValid).toBe(false)

    // Another key published under the selector (a rotated or wrong record) fails.
    const other = dkimRecord(dkimKeyPair().publicKey)
    const wrongKey = await verifyDkim(raw, { record: other, selector: SELECTOR, domain })
    expect(wrongKey.isValid).toBe(false)
  })

  it('signs with a key file and a parent domain of the sender, and signs the weekly summary too', async () => {
    const file = join(dir, 'dkim-private.pem')
    writeFileSync(file, privateKeyPem)
    // As the chart mounts the Secret: readable by its owner only.
    chmodSync(file, 0o400)
    const domain = 'modernwerk.example'
    const signed = await site({
      MAIL_FROM: 'Modernwerk Website <website@web.modernwerk.example>',
      DKIM_DOMAIN: domain,
      DKIM_PRIVATE_KEY_FILE: file,
    })
    const mail = await lead(signed)
    const key = { record: RECORD, selector: SELECTOR, domain }
    const result = await verifyDkim(mail.raw, key)
    expect(result.isValid, result.log).toBe(true)
    expect(signatureTags(mail.raw).d).toBe(domain)

    // A mail of the site's own, queued as the weekly summary is queued: its figures.
    await signed.contact.queueSiteMail({
      id: '3e0b6a2c-9d4f-4c1a-8f5e-7b2d1c0a9e84',
      receivedAt: new Date().toISOString(),
      kind: INSIGHT_SUMMARY_KIND,
      data: await summaryData(async () => [], {
        until: new Date('2026-11-30T00:00:00Z'),
        selector: '',
        siteUrl: 'https://www.modernwerk.example',
      }),
    })
    await eventually(() => smtp.received.length === 2)
    const summary = smtp.received[1]
    expect(summary?.mail.messageId).toBe(
      '<3e0b6a2c-9d4f-4c1a-8f5e-7b2d1c0a9e84@web.modernwerk.example>',
    )
    const summaryResult = await verifyDkim(summary?.raw ?? '', key)
    expect(summaryResult.isValid, summaryResult.log).toBe(true)
  })

  it('sends unsigned mail when DKIM is not configured', async () => {
    const unsigned = await site({
      MAIL_FROM: 'Modernwerk Website <website@modernwerk.example>',
      DKIM_SELECTOR: '',
    })
    const { raw } = await lead(unsigned)
    expect(raw).not.toMatch(/^DKIM-Signature:/im)
    const result = await verifyDkim(raw, {
      record: RECORD,
      selector: SELECTOR,
      domain: 'modernwerk.example',
    })
    expect(result.isValid).toBe(false)
  })
})
