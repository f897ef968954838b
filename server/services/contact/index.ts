/**
 * The contact pipeline: what happens to a message once the spam defence has let it through,
 * until it is in the company's inbox, and what keeps it from being lost or kept too long. An
 * accepted message is written durably before the visitor hears "sent" (`outbox.ts`: fsynced
 * files with one process; `redis-outbox.ts`: a BullMQ queue with several replicas, refused
 * unless Redis writes to disk, `redis-config.ts`), then handed to SMTP with retries
 * (`delivery.ts`) as a mail the partners can answer (`mail.ts`, `mail-address.ts`), signed with
 * DKIM when a key is configured (`dkim.ts`). Posts the spam defence drops but that are messages
 * wait in the quarantine for an operator (`quarantine.ts`); the retention sweep deletes
 * delivered, failed and quarantined messages when the privacy policy says (`retention.ts`).
 * Code outside this folder imports it only from here.
 */

export { startDeliveryWorker } from './delivery.ts'
export { DKIM_SELECTOR, DOMAIN_NAME, dkimPrivateKey, dkimSigning, isAlignedDomain } from './dkim.ts'
export { contactMail, htmlDocument, MAIL_NAMESPACES, siteMail } from './mail.ts'
export { namedRecipient, senderDomain } from './mail-address.ts'
export {
  FileOutbox,
  isContactSubmission,
  type OutboxEntry,
  type OutboxItem,
  type RemovedEntry,
  type SiteMail,
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
export { checkRedisDurability } from './redis-config.ts'
export { DISK_REWRITE_RESULTS, failFastRedis, operatorQueue, RedisOutbox } from './redis-outbox.ts'
export { startRetention } from './retention.ts'
