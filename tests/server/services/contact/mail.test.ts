import i18next from 'i18next'
import nodemailer from 'nodemailer'
import { describe, expect, it } from 'vitest'
import { contactMail } from '#server/services/contact/mail.ts'
import { namedRecipient } from '#server/services/contact/mail-address.ts'
import type { ContactSubmission } from '#server/services/contact/outbox.ts'

/** The schema refuses CR/LF already; the mail builder must hold even if that ever changed. */
describe('contactMail', () => {
  it('keeps CR/LF in name and subject out of the headers of the raw message', async () => {
    const entry: ContactSubmission = {
      id: '6f9c1c3e-5c0e-4bb4-9a1e-2c1b7d6f0a11',
      receivedAt: '2026-11-22T10:00:00.000Z',
      message: {
        name: 'Eve\r\nBcc: victim@example.com',
        email: 'eve@example.com',
        service: 'other',
        subject: 'Hello\r\nBcc: victim@example.com\r\nX-Injected: yes',
        message: 'Body text\r\nBcc: not a header here',
        locale: 'en',
      },
    }
    const i18n = i18next.createInstance()
    await i18n.init({
      lng: 'en',
      resources: { en: { mail: { subjectPrefix: 'Contact' }, common: {}, 'service-cards': {} } },
    })
    const options = contactMail(
      entry,
      { from: 'Website <web@example.com>', to: 'inbox@example.com' },
      i18n.getFixedT('en', ['mail', 'common', 'service-cards']),
    )
    const transport = nodemailer.createTransport({ streamTransport: true, buffer: true })
    const info = await transport.sendMail(options)
    const raw = (info.message as Buffer).toString('utf8')
    const headers = raw.slice(0, raw.indexOf('\r\n\r\n'))
    expect(headers).not.toMatch(/^Bcc:/im)
    expect(headers).not.toMatch(/^X-Injected:/im)
    expect(headers).toMatch(/^Subject: Contact: Hello Bcc: victim@example.com X-Injected: yes$/m)
    expect(headers).toMatch(/^Reply-To: /m)
    expect(info.envelope.to).toEqual(['inbox@example.com'])
  })
})

describe('namedRecipient', () => {
  it('gives a bare address the company’s name and keeps a named one as written', async () => {
    const bare = namedRecipient(' kontakt@modernwerk.example ', 'Modernwerk')
    expect(bare).toEqual({ name: 'Modernwerk', address: 'kontakt@modernwerk.example' })
    expect(namedRecipient('Vertrieb <sales@modernwerk.example>', 'Modernwerk')).toBe(
      'Vertrieb <sales@modernwerk.example>',
    )
    // As the header goes out: the name in front, the address in brackets.
    const transport = nodemailer.createTransport({ streamTransport: true, buffer: true })
    const sent = await transport.sendMail({ from: 'w@modernwerk.example', to: bare, text: 'x' })
    expect((sent.message as Buffer).toString('utf8')).toMatch(
      /^To: Modernwerk <kontakt@modernwerk\.example>\r$/m,
    )
  })
})
