/**
 * The contact pipeline: what happens to a message once the spam defence has let it through,
 * until it is in the company's inbox, and what keeps it from being lost or kept too long. An
 * accepted message is written durably before the visitor hears "sent" (`outbox.ts`: fsynced
 * files with one process; `redis-outbox.ts`: a BullMQ queue with several replicas, refused
 * unless Redis writes to disk, `redis-config.ts`), then handed to SMTP with retries
 * (`store.ts` chooses the store and starts its workers; `delivery.ts` is the folder's) as a mail
 * the partners can answer, written from the stored data at sending (`sender.ts`,
 * `stored-items.ts`, `mail.ts`, `mail-address.ts`), signed with DKIM when a key is configured
 * (`dkim.ts`). Its metrics are read from file names and job fields, never messages
 * (`metrics.ts`). Posts the spam defence drops but that are messages
 * wait in the quarantine for an operator (`quarantine.ts`), who is sent every day's in full
 * (`quarantine-digest.ts`); the retention sweep deletes
 * delivered, failed and quarantined messages when the privacy policy says (`retention.ts`).
 * Code outside this folder imports it only from here.
 */

export { DKIM_SELECTOR, DOMAIN_NAME, dkimPrivateKey, dkimSigning, isAlignedDomain } from './dkim.ts'
export { contactMail, htmlDocument, MAIL_NAMESPACES, type WrittenMail } from './mail.ts'
export { namedRecipient, senderDomain } from './mail-address.ts'
export { contactMetrics, REJECTION_OUTCOME } from './metrics.ts'
export {
  FileOutbox,
  isContactSubmission,
  type OutboxItem,
  type RemovedEntry,
  type SiteMail,
  siteMailId,
} from './outbox.ts'
export {
  FileQuarantine,
  QUARANTINE_FOLDER,
  quarantineEntry,
  RedisQuarantine,
  releasedSubmission,
  type Quarantine,
  type QuarantineStats,
} from './quarantine.ts'
export {
  digestData,
  digestMailOf,
  digestTime,
  dueDigest,
  QUARANTINE_DIGEST_KIND,
} from './quarantine-digest.ts'
export { failFastRedis, operatorQueue, RedisOutbox } from './redis-outbox.ts'
export { startRetention } from './retention.ts'
export { mailSender, type SiteMailWriter, SMTP_TIMEOUTS } from './sender.ts'
export { openMessageStore } from './store.ts'
