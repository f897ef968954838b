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

/**
 * How long the relay may take, as RFC 5321 §4.5.3.2 gives a client's timeouts
 * (docs/decisions/smtp-timeouts-of-rfc-5321.md): a relay slower than ours thought is still
 * within the standard, and a send given up on after the message's data went out may already
 * be in the relay's hands, so its retry is a second copy.
 */
export const SMTP_TIMEOUTS = {
  /**
   * Connecting. The RFC names no bound; 2 minutes is nodemailer's default and about when
   * Linux itself gives up on an address that does not answer (its SYN retries).
   */
  connectMs: 2 * 60_000,
  /** The server's greeting once connected (§4.5.3.2.1, "Initial 220 Message": 5 minutes). */
  greetingMs: 5 * 60_000,
  /**
   * Silence on the connection at any later step: the longest wait the RFC allows, for the
   * answer to the final "." of DATA (§4.5.3.2.6, "DATA Termination": 10 minutes); the other
   * commands' 2, 3 and 5 minutes are within it. A shutdown waits this long for a send in
   * progress (`server/main.ts`).
   */
  socketMs: 10 * 60_000,
} as const

export type MailSenderOptions = {
  /** `SMTP_URL`; without it nothing is sent. */
  url: string | undefined
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
 * so nothing a store holds is ever sent as it stands. `send` is missing without `SMTP_URL`;
 * `sending` counts the sends in progress, which a shutdown waits for.
 */
export function mailSender(options: MailSenderOptions) {
  const { url, dkim, settings, texts, writers, log } = options
  const transport = url
    ? nodemailer.createTransport({
        url,
        // nodemailer counts the greeting against connectionTimeout as well (its deadline for
        // the whole set-up: lookup, connection, greeting, STARTTLS), so the greeting keeps its
        // 5 minutes after a connection that took its 2.
        connectionTimeout: SMTP_TIMEOUTS.connectMs + SMTP_TIMEOUTS.greetingMs,
        greetingTimeout: SMTP_TIMEOUTS.greetingMs,
        socketTimeout: SMTP_TIMEOUTS.socketMs,
        // DKIM_*: every mail through this transport is signed (leads and the site's own).
        dkim,
      })
    : null
  let sending = 0

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
          sending++
          try {
            await transport.sendMail(mail)
          } finally {
            sending--
          }
          return 'sent'
        }
      : undefined,
    /** Sends in progress: handed to the relay, its answer not in yet. */
    sending: () => sending,
    close() {
      transport?.close()
    },
  }
}
