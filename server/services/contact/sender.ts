import nodemailer, { type DKIMOptions, type SendMailOptions } from 'nodemailer'
import type { Locale } from '#shared/locales.ts'
import {
  contactMail,
  siteMail,
  type MailSettings,
  type MailTexts,
  type WrittenMail,
} from './mail.ts'
import { isContactSubmission, type OutboxItem } from './outbox.ts'
import { paths, storedItem } from './stored-items.ts'
import { ZodError } from 'zod'

/**
 * Writes the mail of a site mail's data (`SiteMail.kind` names the writer); throws when the
 * data does not read as what it writes from.
 */
export type SiteMailWriter = (data: unknown) => WrittenMail

/** The log line of an item no mail could be written from (deleted, not retried). */
const DISCARDED =
  'stored item not sent, its content deleted: it does not read as a message this version can write a mail from'

/** What became of an item handed to `send`: sent, or not a mail this version can write. */
export type SendResult = 'sent' | 'discarded'

export type MailSenderOptions = {
  /** `SMTP_URL`; without it nothing is sent. */
  url: string | undefined
  /** Each SMTP step's bound: connect, greeting, every reply. */
  timeoutMs: number
  dkim: DKIMOptions | undefined
  settings: MailSettings
  /** The lead e-mail's labels in the sender's language. */
  texts: (locale: Locale) => MailTexts
  writers: Readonly<Record<string, SiteMailWriter>>
  log: { error: (details: object, message: string) => void }
}

/**
 * The SMTP side of delivery (nodemailer, `SMTP_URL`): every mail it sends it writes itself
 * from an item's data, read again as data first (docs/decisions/stores-hold-data-not-mails.md),
 * so nothing a store holds is ever sent as it stands. `send` is missing without `SMTP_URL`.
 */
export function mailSender(options: MailSenderOptions) {
  const { url, timeoutMs, dkim, settings, texts, writers, log } = options
  const transport = url
    ? nodemailer.createTransport({
        url,
        connectionTimeout: timeoutMs,
        greetingTimeout: timeoutMs,
        socketTimeout: timeoutMs,
        // DKIM_*: every mail through this transport is signed (leads and the site's own).
        dkim,
      })
    : null

  /** The mail an item's data says, or why it says none this version can write. */
  function mailOf(value: OutboxItem): SendMailOptions | { unreadable: string } {
    const item = storedItem(value)
    if ('unreadable' in item) return item
    if (isContactSubmission(item)) return contactMail(item, settings, texts(item.message.locale))
    const writer = writers[item.kind]
    if (!writer)
      return { unreadable: `no writer for site mails of the kind ${JSON.stringify(item.kind)}` }
    try {
      return siteMail(item.id, writer(item.data), settings)
    } catch (error) {
      return {
        unreadable: `not the data of a ${item.kind}: ${error instanceof ZodError ? paths(error) : String(error)}`,
      }
    }
  }

  return {
    send: transport
      ? async (item: OutboxItem): Promise<SendResult> => {
          const mail = mailOf(item)
          if ('unreadable' in mail) {
            log.error({ messageId: item.id, reason: mail.unreadable }, DISCARDED)
            return 'discarded'
          }
          await transport.sendMail(mail)
          return 'sent'
        }
      : undefined,
    close() {
      transport?.close()
    },
  }
}
