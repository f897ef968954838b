import escapeHtml from 'escape-html'
import type { TFunction } from 'i18next'
import type { SendMailOptions } from 'nodemailer'
import { encodeWord } from 'nodemailer/lib/mime-funcs'
import { CONTACT_FIELDS, type ContactField } from '#shared/contact-fields.ts'
import { LOCALE_INFO } from '#shared/locales.ts'
import { hasEncodedWord } from '../../lib/encoded-words.ts'
import { senderDomain } from './mail-address.ts'
import type { ContactSubmission } from './outbox.ts'
import { MAX_LINKS, REPEAT_WINDOW_MS, type SuspectReason } from '../spam/index.ts'

export type MailSettings = { from: string; to: string | { name: string; address: string } }

/** Labels and option names of the lead e-mail, in the language of the sender's page. */
export type MailTexts = TFunction<('mail' | 'common' | 'service-cards' | 'support-plans')[]>

/** The namespaces `MailTexts` reads. */
export const MAIL_NAMESPACES = ['mail', 'common', 'service-cards', 'support-plans'] as const

/**
 * CR, LF and other control characters never reach a header: a second line of defence, as the
 * schema refuses them first (docs/decisions/messages-are-refused-not-cleaned.md).
 */
const oneLine = (text: string) => text.replace(/\p{Cc}+/gu, ' ').trim()

/**
 * A `Message-ID` on the sender's domain made from an outbox id: a rare second delivery of the
 * same item (the SMTP server accepted, the acknowledgement was lost) carries the same one and
 * is recognisable as a repeat.
 */
function messageId(id: string, settings: MailSettings): string {
  return `<${id}@${senderDomain(settings.from) ?? 'localhost'}>`
}

/**
 * The HTML part as a whole document rather than a fragment: the language a screen reader and
 * a mail client's translation offer go by, the charset, and a title. Simple markup with
 * attributes and inline styles only (some mail clients drop `<style>`, many block what is
 * loaded from elsewhere), no scripts, no images.
 */
export function htmlDocument({
  lang,
  title,
  body,
}: {
  lang: string
  title: string
  /** Already escaped markup. */
  body: string
}): string {
  return [
    '<!doctype html>',
    `<html lang="${escapeHtml(lang)}">`,
    '<head>',
    '<meta charset="utf-8">',
    '<meta name="viewport" content="width=device-width, initial-scale=1">',
    `<title>${escapeHtml(title)}</title>`,
    '</head>',
    '<body style="font-family: Arial, Helvetica, sans-serif; line-height: 1.4;">',
    body,
    '</body>',
    '</html>',
    '',
  ].join('\n')
}

/** A field's value as the company reads it: a choice by its name, a missing one as a dash. */
function shown(field: ContactField, value: string | undefined, t: MailTexts): string {
  if (value === undefined) return '–'
  const option = 'options' in field ? field.options.find((o) => o.value === value) : undefined
  return option ? t(option.label) : value
}

/** One sign of spam as the mail names it. */
function suspectSign(reason: SuspectReason, t: MailTexts): string {
  switch (reason) {
    case 'links':
      return t('suspectSign.links', { count: MAX_LINKS })
    case 'repeated':
      return t('suspectSign.repeated', { count: REPEAT_WINDOW_MS / 3_600_000 })
    case 'onlyLinks':
      return t('suspectSign.onlyLinks')
    case 'linkInName':
      return t('suspectSign.linkInName')
    case 'encodedWords':
      return t('suspectSign.encodedWords')
  }
}

/**
 * The e-mail for the company inbox: the fields that head it (the chosen package) when given,
 * the signs of spam its content shows (if any, also marked in the subject), a row per field of
 * the table, then the message; plain
 * text plus escaped HTML, `Reply-To` the visitor, a fixed localized subject prefix. Nothing is
 * ever sent to the visitor.
 */
export function contactMail(
  entry: ContactSubmission,
  settings: MailSettings,
  t: MailTexts,
): SendMailOptions {
  const { message, suspect = [], released } = entry
  const value = (field: ContactField) => shown(field, message[field.name], t)
  const signs: [string, string][] = [
    // Released from the quarantine by an operator (docs/contact.md#quarantine): why it was held
    // back.
    ...(released ? [[t('releasedReason'), t(`dropReason.${released}`)] as [string, string]] : []),
    ...(suspect.length > 0
      ? [
          [t('suspectSigns'), suspect.map((reason) => suspectSign(reason, t)).join('; ')] as [
            string,
            string,
          ],
        ]
      : []),
  ]
  const rows: [string, string][] = [
    ...signs,
    ...CONTACT_FIELDS.filter((field) => field.mail === 'row').map((field): [string, string] => [
      t(field.name),
      value(field),
    ]),
    [t('language'), LOCALE_INFO[message.locale].name],
    [t('received'), entry.receivedAt],
    [t('reference'), entry.id],
  ]
  const head = CONTACT_FIELDS.filter(
    (field) => field.mail === 'head' && message[field.name] !== undefined,
  ).map((field): [string, string] => [t(field.name), value(field)])
  const body = CONTACT_FIELDS.filter((field) => field.mail === 'body')
  const text = [
    ...head.flatMap(([label, text]) => [`${label}: ${text}`, '']),
    ...rows.map(([label, text]) => `${label}: ${text}`),
    ...body.flatMap((field) => ['', `${t(field.name)}:`, value(field)]),
  ].join('\n')
  const service = CONTACT_FIELDS.find((field) => field.name === 'service')
  // The visitor's subject, or (the home page's form has none) the service of interest. A
  // message released from the quarantine, or with signs of spam, is marked first, where a mail
  // filter can sort by it.
  const markers = [
    ...(released ? [t('released', { reason: t(`dropReason.${released}`) })] : []),
    ...(suspect.length > 0 ? [t('suspect')] : []),
  ]
  const subject = [
    ...markers,
    `${t('subjectPrefix')}: ${oneLine(message.subject ?? (service ? value(service) : ''))}`,
  ].join(' ')
  // The same words as the text part: a filter compares the two (SpamAssassin's MPART_ALT_DIFF).
  const html = htmlDocument({
    lang: message.locale,
    title: subject,
    body: [
      ...head.map(([label, text]) => `<h2>${escapeHtml(`${label}: ${text}`)}</h2>`),
      '<table cellpadding="4" cellspacing="0">',
      ...rows.map(
        ([label, text]) =>
          `<tr><th align="left" valign="top">${escapeHtml(label)}</th><td>${escapeHtml(text)}</td></tr>`,
      ),
      '</table>',
      ...body.map(
        (field) =>
          `<h3>${escapeHtml(t(field.name))}</h3>\n<p>${escapeHtml(value(field)).replace(/\r?\n/g, '<br>\n')}</p>`,
      ),
    ].join('\n'),
  })
  const name = oneLine(message.name)
  return {
    from: settings.from,
    to: settings.to,
    // Text that holds an encoded word must arrive as typed, never as what the word would
    // decode to (server/lib/encoded-words.ts): the subject is encoded whole (nodemailer passes
    // an encoded word through as it stands), and such a name is left out of `Reply-To` (which
    // nodemailer would write in quotes, where some programs decode it all the same); the
    // mail's rows show it as typed.
    replyTo: hasEncodedWord(name) ? message.email : { name, address: message.email },
    subject: hasEncodedWord(subject) ? encodeWord(subject, 'B', 52) : subject,
    text,
    html,
    messageId: messageId(entry.id, settings),
    headers: { 'X-Contact-Id': entry.id },
  }
}

/** A mail of the site's own as its writer wrote it: subject, text and an HTML document. */
export type WrittenMail = { subject: string; text: string; html: string }

/**
 * A mail of the site's own (the weekly insight summary) as it is sent: to `MAIL_TO`, with a
 * `Message-ID` made from its outbox id, which is the same for every sending of one week's
 * summary.
 */
export function siteMail(id: string, mail: WrittenMail, settings: MailSettings): SendMailOptions {
  const { subject, text, html } = mail
  return {
    from: settings.from,
    to: settings.to,
    subject,
    text,
    html,
    messageId: messageId(id, settings),
  }
}
