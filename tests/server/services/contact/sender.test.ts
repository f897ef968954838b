import i18next from 'i18next'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAIL_NAMESPACES, mailSender } from '#server/services/contact/index.ts'
import { INSIGHT_SUMMARY_KIND, summaryData, summaryMailOf } from '#server/services/insight/index.ts'
import type { OutboxItem } from '#server/services/contact/outbox.ts'
import { startSmtpServer } from '#tests/helpers/smtp.ts'

/**
 * The worker sends only mails it writes itself (docs/decisions/stores-hold-data-not-mails.md):
 * whatever a store holds beside the data, nothing of it reaches the inbox as it stands.
 */
let smtp: Awaited<ReturnType<typeof startSmtpServer>>
let sender: ReturnType<typeof mailSender>
const logged: object[] = []
const LEAD = {
  id: '0f8b7a1e-2c3d-4e5f-8a9b-0c1d2e3f4a5b',
  receivedAt: '2026-11-29T09:00:00.000Z',
  message: {
    name: 'Anna Nowak',
    email: 'anna.nowak@example.pl',
    service: 'cloud',
    message: 'Prosimy o kontakt w sprawie migracji.',
    locale: 'pl',
  },
}

beforeAll(async () => {
  smtp = await startSmtpServer()
  const i18n = i18next.createInstance()
  await i18n.init({ lng: 'en', resources: { pl: { mail: { subjectPrefix: 'Kontakt' } } } })
  sender = mailSender({
    url: smtp.url,
    dkim: undefined,
    settings: { from: 'Website <website@modernwerk.example>', to: 'leads@modernwerk.example' },
    texts: (locale) => i18n.getFixedT(locale, [...MAIL_NAMESPACES]),
    writers: { [INSIGHT_SUMMARY_KIND]: summaryMailOf },
    log: { error: (details: object) => void logged.push(details) },
  })
})

afterAll(async () => {
  sender.close()
  await smtp.stop()
})

async function send(item: unknown) {
  const before = smtp.received.length
  const result = await sender.send?.(item as OutboxItem)
  return { result, sent: smtp.received.slice(before) }
}

describe('mailSender', () => {
  it("writes a lead's mail from its fields alone: what else the stored item carries is never sent", async () => {
    const { result, sent } = await send({
      ...LEAD,
      html: '<a href="https://phish.example/">Invoice</a>',
      mail: { subject: 'Urgent invoice', text: 'Pay now', html: '<b>Pay now</b>' },
      message: { ...LEAD.message, headers: 'Bcc: victim@example.com' },
    })
    expect(result).toBe('sent')
    expect(sent).toHaveLength(1)
    expect(sent[0]?.raw).toContain('Anna Nowak')
    for (const injected of ['phish.example', 'Urgent invoice', 'Pay now', 'victim@example.com'])
      expect(sent[0]?.raw).not.toContain(injected)
  })

  it('sends nothing for an item that carries a finished mail instead of data', async () => {
    // The shape earlier versions queued the weekly summary in, or anyone with the store's key.
    const { result, sent } = await send({
      id: '3e0b6a2c-9d4f-4c1a-8f5e-7b2d1c0a9e84',
      receivedAt: '2026-11-29T07:00:00.000Z',
      mail: { subject: 'Invoice', text: 'Pay now', html: '<a href="https://phish.example/">x</a>' },
    })
    expect(result).toBe('discarded')
    expect(sent).toEqual([])
    // The log says which item and why, never what it carried.
    expect(logged.at(-1)).toEqual({
      messageId: '3e0b6a2c-9d4f-4c1a-8f5e-7b2d1c0a9e84',
      reason: 'not a site mail: kind, data',
    })
  })

  it('sends nothing for a site mail of an unknown kind or with data its writer does not read', async () => {
    const base = { id: '3e0b6a2c-9d4f-4c1a-8f5e-7b2d1c0a9e85', receivedAt: LEAD.receivedAt }
    expect((await send({ ...base, kind: 'html', data: '<b>x</b>' })).result).toBe('discarded')
    const forged = { ...base, kind: INSIGHT_SUMMARY_KIND, data: { subject: 'Pay now' } }
    expect((await send(forged)).result).toBe('discarded')
    // A lead without its address or language is no lead either.
    const withoutEmail: Partial<typeof LEAD.message> = { ...LEAD.message }
    delete withoutEmail.email
    expect((await send({ ...LEAD, message: withoutEmail })).result).toBe('discarded')
    expect(smtp.received.filter((mail) => mail.raw.includes('Pay now'))).toEqual([])
  })

  it('writes the weekly summary from the figures it carries', async () => {
    const data = await summaryData(async () => [], {
      until: new Date('2026-11-30T00:00:00Z'),
      selector: '',
      siteUrl: 'https://www.modernwerk.example',
    })
    const { result, sent } = await send({
      id: '3e0b6a2c-9d4f-4c1a-8f5e-7b2d1c0a9e86',
      receivedAt: LEAD.receivedAt,
      kind: INSIGHT_SUMMARY_KIND,
      data,
    })
    expect(result).toBe('sent')
    expect(sent[0]?.mail.subject).toBe('Website insight: the week to 29 November 2026')
    expect(sent[0]?.mail.text).toContain('https://www.modernwerk.example')
  })
})
