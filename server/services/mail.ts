import escapeHtml from 'escape-html'
import type { TFunction } from 'i18next'
import type { SendMailOptions } from 'nodemailer'
import { LOCALE_INFO } from '#shared/locales.ts'
import type { ContactSubmission } from './outbox.ts'

export type MailSettings = { from: string; to: string }

/** CR, LF and other control characters never reach a header (the schema refuses them too). */
const oneLine = (text: string) => text.replace(/\p{Cc}+/gu, ' ').trim()

/** The domain of the sender address (`Website <web@modernwerk.de>` → `modernwerk.de`). */
function mailDomain(from: string): string {
  return /@([^\s>]+)>?\s*$/.exec(from)?.[1] ?? 'localhost'
}

/**
 * The e-mail for the company inbox: plain text plus escaped HTML, `Reply-To` the visitor, a
 * fixed localized subject prefix. Nothing is ever sent to the visitor.
 */
export function contactMail(
  entry: ContactSubmission,
  settings: MailSettings,
  t: TFunction<'mail'>,
  service: string,
): SendMailOptions {
  const { message } = entry
  const rows: [string, string][] = [
    [t('name'), message.name],
    [t('email'), message.email],
    [t('company'), message.company ?? '–'],
    [t('service'), service],
    [t('subject'), message.subject ?? '–'],
    [t('language'), LOCALE_INFO[message.locale].name],
    [t('received'), entry.receivedAt],
    [t('reference'), entry.id],
  ]
  const text = [
    ...rows.map(([label, value]) => `${label}: ${value}`),
    '',
    `${t('message')}:`,
    message.message,
  ].join('\n')
  const html =
    `<table>${rows.map(([label, value]) => `<tr><th align="left">${escapeHtml(label)}</th><td>${escapeHtml(value)}</td></tr>`).join('')}</table>` +
    `<h3>${escapeHtml(t('message'))}</h3><p>${escapeHtml(message.message).replace(/\n/g, '<br>')}</p>`
  return {
    from: settings.from,
    to: settings.to,
    replyTo: { name: oneLine(message.name), address: message.email },
    subject: `${t('subjectPrefix')}: ${oneLine(message.subject ?? service)}`,
    text,
    html,
    // Derived from the submission's id: a rare second delivery (the SMTP server accepted, the
    // acknowledgement was lost) carries the same Message-ID and is recognisable as a repeat.
    messageId: `<${entry.id}@${mailDomain(settings.from)}>`,
    headers: { 'X-Contact-Id': entry.id },
  }
}
