import { randomUUID } from 'node:crypto'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Redis } from 'ioredis'
import type { Registry } from 'prom-client'
import { COMPANY } from '#shared/company.ts'
import type { ContactFormId } from '#shared/contact-fields.ts'
import type { ContactMessage } from '#shared/contact-schema.ts'
import {
  contactMetrics,
  digestMailOf,
  dkimSigning,
  FileOutbox,
  FileQuarantine,
  isContactSubmission,
  mailSender,
  MAIL_NAMESPACES,
  namedRecipient,
  openMessageStore,
  type OutboxItem,
  type Quarantine,
  QUARANTINE_DIGEST_KIND,
  QUARANTINE_FOLDER,
  quarantineEntry,
  RedisOutbox,
  type RemovedEntry,
  RedisQuarantine,
  REJECTION_OUTCOME,
  type SiteMail,
  startRetention,
} from '../services/contact/index.ts'
import { INSIGHT_SUMMARY_KIND, summaryMailOf } from '../services/insight/index.ts'
import {
  type DropReason,
  type RejectionReason,
  REJECTIONS,
  type SuspectReason,
} from '../services/spam/index.ts'

declare module 'fastify' {
  interface FastifyInstance {
    contact: {
      /**
       * Stores the message durably (on disk, or acknowledged by Redis); resolves with its id.
       * `id` is the submission's own id, so a repeated request is not a second lead; `suspect`
       * the signs of spam its content shows (delivered all the same, marked).
       */
      accept: (message: ContactMessage, id?: string, suspect?: SuspectReason[]) => Promise<string>
      /** Counts a post the spam defence refused or answered with a new token, by reason. */
      reject: (reason: Exclude<RejectionReason, DropReason>) => void
      /**
       * A post the spam defence dropped: counted by reason and, if it is a message at all
       * (`post`), kept in the quarantine; resolves with the id its answer carries (the same
       * answer a person gets, so a bot learns nothing), the entry's when it was kept.
       */
      drop: (
        reason: DropReason,
        post: { form: ContactFormId; message: ContactMessage } | null,
      ) => Promise<string>
      /**
       * Stores a mail of the site's own for `MAIL_TO` (the weekly insight summary) in the same
       * outbox or queue, delivered and retried like a message; an id already there is not
       * added again. It carries data: the writer its `kind` names writes the mail when it is
       * sent.
       */
      queueSiteMail: (mail: SiteMail) => Promise<void>
      /** Counts a submission that was refused. */
      count: (outcome: 'invalid' | 'rateLimited' | 'error') => void
      /** Counts what a run of the quarantine digest came to. */
      countDigest: (outcome: 'queued' | 'nothing' | 'failed') => void
      /**
       * Deletes what was not delivered within `CONTACT_RETENTION_DAYS` as of `now` (runs
       * hourly by itself); resolves with how many messages went.
       */
      purgeExpired: (now?: number) => Promise<number>
      /**
       * Deletes quarantine entries older than `QUARANTINE_DAYS` as of `now` (runs hourly by
       * itself); resolves with how many went.
       */
      purgeQuarantine: (now?: number) => Promise<number>
      outbox: FileOutbox
      /** The shared queue when `REDIS_URL` is set. */
      queue: RedisOutbox | null
      /** Where dropped posts are kept (docs/contact.md#quarantine); null with `QUARANTINE_DAYS=0`.
       * */
      quarantine: Quarantine | null
      /**
       * How many mails this process has handed to the relay without its answer yet: a
       * shutdown waits for them (at most `SMTP_TIMEOUTS.socketMs` past `SHUTDOWN_GRACE_MS`).
       */
      deliveriesInProgress: () => number
    }
  }
}

export type ContactDeliveryOptions = {
  metrics: Registry
  /** The site's fail-fast Redis connection when `REDIS_URL` is set (the quarantine's store). */
  redis: Redis | null
  /** Test knobs: how often the worker looks at the outbox, the first retry delay, how
   * long a Redis job stays locked by a worker that stopped answering, and when the first
   * rewrite of Redis's append-only file after the start comes. */
  pollMs?: number
  firstRetryMs?: number
  redisLockMs?: number
  firstDiskRewriteMs?: number
}

/**
 * Contact messages (docs/contact.md#contact-form-and-mail-delivery): accepted into the durable
 * store `REDIS_URL` chooses (`openMessageStore`), delivered by its workers over SMTP
 * (`mailSender`, which writes every mail from the item's data), counted (`contactMetrics`) and
 * deleted when the privacy policy says (`startRetention`). Dropped posts go to the
 * quarantine. Without `SMTP_URL` messages stay in the store and the log says where. The
 * workers stop cleanly when the app closes.
 */
export const contactDeliveryPlugin = fp<ContactDeliveryOptions>(
  async (app, { metrics, redis, pollMs, firstRetryMs, redisLockMs, firstDiskRewriteMs }) => {
    const { config } = app
    const sender = mailSender({
      url: config.SMTP_URL,
      dkim: dkimSigning(config),
      settings: { from: config.MAIL_FROM, to: namedRecipient(config.MAIL_TO, COMPANY.brand) },
      texts: (locale) => app.i18n.getFixedT(locale, [...MAIL_NAMESPACES]),
      writers: { [INSIGHT_SUMMARY_KIND]: summaryMailOf, [QUARANTINE_DIGEST_KIND]: digestMailOf },
      log: app.log,
    })
    if (sender.send && config.DKIM_DOMAIN) {
      app.log.info(
        { domain: config.DKIM_DOMAIN, selector: config.DKIM_SELECTOR },
        'mails are DKIM-signed',
      )
    }

    // The store and the quarantine are read by the gauges; the counters exist before either.
    let store: Awaited<ReturnType<typeof openMessageStore>> | null = null
    let quarantine: Quarantine | null = null
    const counters = contactMetrics(metrics, {
      backlog: async () => {
        if (!store) throw new Error('the store is not open yet')
        return store.backlog()
      },
      quarantine: async () => (quarantine ? quarantine.stats() : null),
      isWritable: async () => (store ? store.isWritable() : false),
      isDeliveryConfigured: Boolean(sender.send),
    })
    // Visitors' messages only: the site's own mails are no leads.
    const deliveries = {
      delivered: (item: OutboxItem) => {
        if (isContactSubmission(item)) counters.deliveries.inc({ result: 'delivered' })
      },
      failed: (item: OutboxItem) => {
        if (isContactSubmission(item)) counters.deliveries.inc({ result: 'failed' })
      },
    }

    const messages = await openMessageStore({
      outboxDir: config.OUTBOX_DIR,
      redisUrl: config.REDIS_URL,
      diskRewriteIntervalMs: config.REDIS_AOF_REWRITE_INTERVAL,
      send: sender.send,
      log: app.log,
      counters: { ...deliveries, diskRewrite: (result) => counters.diskRewrites.inc({ result }) },
      pollMs,
      firstRetryMs,
      redisLockMs,
      firstDiskRewriteMs,
    })
    store = messages
    // A shutdown starts no delivery and waits for the ones in progress, never cutting one off:
    // once the message's data went out the relay may have it, and a retry, here or on another
    // replica, would be a second copy. The SMTP timeouts bound the wait (SMTP_TIMEOUTS), and
    // server/main.ts keeps the process alive for it past SHUTDOWN_GRACE_MS.
    app.addHook('preClose', (done) => {
      messages.stopDelivering()
      const deliveries = sender.sending()
      if (deliveries > 0) app.log.info({ deliveries }, 'shutdown waits for a delivery in progress')
      done()
    })
    app.addHook('onClose', async () => {
      await messages.close()
      sender.close()
    })
    if (!sender.send) {
      app.log.warn(
        { dir: config.REDIS_URL ? undefined : messages.outbox.dir },
        config.REDIS_URL
          ? 'SMTP_URL is not set: contact messages wait in the Redis queue and are not sent'
          : 'SMTP_URL is not set: contact messages are kept in the outbox folder and not sent',
      )
    }

    const retention = startRetention({
      days: config.CONTACT_RETENTION_DAYS,
      log: app.log,
      removed(entries) {
        for (const entry of entries) {
          app.log.warn(
            {
              messageId: entry.id,
              receivedAt: entry.receivedAt,
              attempts: entry.attempts,
              days: config.CONTACT_RETENTION_DAYS,
            },
            'contact message deleted: not delivered within the retention period',
          )
        }
        counters.purged.inc(entries.length)
      },
      purge: (cutoff) => messages.purgeReceivedBefore(cutoff),
    })
    app.addHook('onClose', () => retention.stop())

    // The quarantine (docs/contact.md#quarantine): dropped posts kept for an operator to look at.
    // Every store that may hold some is swept, the one in use or not: the folder after a
    // switch to Redis, and everything once QUARANTINE_DAYS is 0.
    const { active: held, stores: quarantineStores } = await openQuarantine(
      app,
      redis,
      messages.outbox.dir,
    )
    quarantine = held
    const quarantineRetention = startRetention({
      days: config.QUARANTINE_DAYS,
      log: app.log,
      removed(entries) {
        app.log.info(
          { count: entries.length, days: config.QUARANTINE_DAYS },
          'quarantined contact posts deleted after the quarantine period',
        )
        counters.quarantineRemoved.inc({ cause: 'expired' }, entries.length)
      },
      async purge(cutoff) {
        const removed: RemovedEntry[] = []
        for (const store of quarantineStores) {
          removed.push(
            ...(await store.purgeReceivedBefore(cutoff).catch((error: unknown) => {
              // No folder: nothing kept there.
              if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
              app.log.warn({ err: error }, 'quarantine sweep failed, tried again next hour')
              return []
            })),
          )
        }
        return removed
      },
    })
    app.addHook('onClose', () => quarantineRetention.stop())
    const purgeQuarantine = quarantineRetention.run

    app.decorate('contact', {
      outbox: messages.outbox,
      queue: messages.queue,
      quarantine: held,
      async accept(
        message: ContactMessage,
        id: string = randomUUID(),
        suspect: SuspectReason[] = [],
      ) {
        await messages.put({
          id,
          receivedAt: new Date().toISOString(),
          message,
          ...(suspect.length > 0 ? { suspect } : {}),
        })
        counters.submissions.inc({ outcome: 'accepted' })
        for (const reason of suspect) counters.suspects.inc({ reason })
        return id
      },
      queueSiteMail: (mail: SiteMail) => messages.put(mail),
      reject(reason) {
        counters.submissions.inc({ outcome: REJECTION_OUTCOME[REJECTIONS[reason].answer] })
        counters.rejected.inc({ reason })
      },
      async drop(reason, post) {
        counters.submissions.inc({ outcome: REJECTION_OUTCOME.dropped })
        counters.rejected.inc({ reason })
        if (!held || !post) return randomUUID()
        const entry = quarantineEntry(reason, post.form, post.message)
        try {
          const evicted = await held.put(entry)
          counters.quarantined.inc({ reason })
          if (evicted > 0) counters.quarantineRemoved.inc({ cause: 'evicted' }, evicted)
        } catch (error) {
          // Answered like a success all the same: the post was dropped, only not kept.
          app.log.warn({ err: error, reason }, 'dropped contact post could not be quarantined')
        }
        return entry.id
      },
      count(outcome) {
        counters.submissions.inc({ outcome })
      },
      countDigest(outcome) {
        counters.digests.inc({ outcome })
      },
      purgeExpired: retention.run,
      purgeQuarantine: (now) => purgeQuarantine(now),
      deliveriesInProgress: sender.sending,
    })
  },
  { name: 'contact-delivery', dependencies: ['i18n'] },
)

/**
 * The quarantine's store: Redis with several replicas, else a folder in the outbox's; none
 * with `QUARANTINE_DAYS=0`. A folder that cannot be made is logged: drops are then not kept.
 * `stores` are all that may hold entries and are swept: the one in use, the folder beside a
 * Redis one (entries kept before `REDIS_URL` was set), and with `QUARANTINE_DAYS=0` whichever
 * kept entries before.
 */
async function openQuarantine(
  app: FastifyInstance,
  redis: Redis | null,
  outboxDir: string,
): Promise<{ active: Quarantine | null; stores: Quarantine[] }> {
  const { config } = app
  const limits = {
    maxEntries: config.QUARANTINE_MAX_ENTRIES,
    maxBytes: config.QUARANTINE_MAX_BYTES,
  }
  const folder = new FileQuarantine(join(outboxDir, QUARANTINE_FOLDER), limits)
  const shared = redis ? new RedisQuarantine(redis, limits) : null
  const stores = shared ? [shared, folder] : [folder]
  if (config.QUARANTINE_DAYS === 0) return { active: null, stores }
  if (shared) return { active: shared, stores }
  await folder.init().catch((error: unknown) => {
    app.log.error({ err: error, dir: folder.dir }, 'quarantine folder cannot be created')
  })
  return { active: folder, stores }
}
