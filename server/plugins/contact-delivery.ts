import { randomUUID } from 'node:crypto'
import { join, resolve } from 'node:path'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Redis } from 'ioredis'
import nodemailer from 'nodemailer'
import { Counter, Gauge, type Registry } from 'prom-client'
import { COMPANY } from '#shared/company.ts'
import type { ContactFormId } from '#shared/contact-fields.ts'
import type { ContactMessage } from '#shared/contact-schema.ts'
import {
  checkRedisDurability,
  contactMail,
  DISK_REWRITE_RESULTS,
  dkimSigning,
  FileOutbox,
  FileQuarantine,
  isContactSubmission,
  MAIL_NAMESPACES,
  namedRecipient,
  type OutboxEntry,
  type OutboxItem,
  type Quarantine,
  QUARANTINE_FOLDER,
  quarantineEntry,
  type QuarantineStats,
  RedisOutbox,
  RedisQuarantine,
  type RemovedEntry,
  siteMail,
  type SiteMail,
  startDeliveryWorker,
  startRetention,
} from '../services/contact/index.ts'
import {
  DROP_REASONS,
  type DropReason,
  REJECTION_REASONS,
  type RejectionReason,
  REJECTIONS,
  SUSPECT_REASONS,
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
      /** Can a message be stored? (The file outbox's folder; with Redis always: pages and
       * readiness never depend on Redis, a submission then gets a 503.) */
      isReady: () => Promise<boolean>
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
       * added again.
       */
      queueSiteMail: (mail: SiteMail) => Promise<void>
      /** Counts a submission that was refused. */
      count: (outcome: 'invalid' | 'rateLimited' | 'error') => void
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
    }
  }
}

/** How a rejection counts among the submissions (`contact_submissions_total{outcome}`). */
const SUBMISSION_OUTCOME = { refused: 'refused', renewed: 'expired', dropped: 'spam' } as const
/** Every outcome of `contact_submissions_total`, each at 0 from the start. */
const SUBMISSION_OUTCOMES = [
  'accepted',
  'invalid',
  'rateLimited',
  'error',
  ...Object.values(SUBMISSION_OUTCOME),
] as const

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
 * The first rewrite of Redis's append-only file after a start: after the retention sweep's
 * first pass (a minute after the start), so what it deleted leaves the disk too, and long
 * before the interval when pods restart more often than that (rollouts, crash loops).
 */
const FIRST_DISK_REWRITE_MS = 90_000

/** What a file outbox entry carries, without its retry schedule. */
function outboxItem(entry: OutboxEntry): OutboxItem {
  const item: Partial<OutboxEntry> = { ...entry }
  delete item.attempts
  delete item.nextAttemptAt
  delete item.lastError
  return item as OutboxItem
}

/**
 * Moves the messages of the file outbox into the Redis queue (same ids, so a move repeated
 * after a crash adds nothing twice); a file goes only after Redis acknowledged its job.
 * Retried every 30 s while Redis is unreachable.
 */
function migrateFileOutbox(
  outbox: FileOutbox,
  queue: RedisOutbox,
  log: {
    info: (details: object, message: string) => void
    warn: (details: object, message: string) => void
  },
) {
  let timer: NodeJS.Timeout | undefined
  let isStopped = false
  async function run() {
    let entries
    try {
      entries = await outbox.list()
    } catch {
      return // no folder: nothing waits
    }
    if (entries.length === 0) return
    let moved = 0
    try {
      for (const entry of entries) {
        if (isStopped) return
        await queue.put(outboxItem(entry))
        await outbox.remove(entry.id)
        moved++
      }
      log.info({ moved }, 'contact messages moved from the outbox folder into the Redis queue')
    } catch (error) {
      log.warn({ err: error, moved }, 'outbox folder not moved into Redis yet, retrying in 30 s')
      if (!isStopped) timer = setTimeout(() => void run(), 30_000)
      timer?.unref()
    }
  }
  void run()
  return {
    stop() {
      isStopped = true
      clearTimeout(timer)
    },
  }
}

/**
 * Contact messages: accepted into the durable outbox, delivered by a worker over SMTP
 * (nodemailer, `SMTP_URL`). Without `SMTP_URL` messages stay in the outbox and the log says
 * where. The worker stops cleanly when the app closes.
 */
export const contactDeliveryPlugin = fp<ContactDeliveryOptions>(
  async (app, { metrics, redis, pollMs, firstRetryMs, redisLockMs, firstDiskRewriteMs }) => {
    const { config } = app
    const outbox = new FileOutbox(resolve(config.OUTBOX_DIR))
    try {
      await outbox.init()
    } catch (error) {
      // Start anyway: readiness reports the problem and the form answers with an error.
      app.log.error({ err: error, dir: outbox.dir }, 'outbox folder cannot be created')
    }

    const submissions = new Counter({
      name: 'contact_submissions_total',
      help: 'Contact form submissions by outcome',
      labelNames: ['outcome'] as const,
      registers: [metrics],
    })
    for (const outcome of SUBMISSION_OUTCOMES) submissions.inc({ outcome }, 0)
    // Every reason from the start at 0, so a rate over them is defined before the first one.
    const rejected = new Counter({
      name: 'contact_rejected_total',
      help: 'Contact posts the spam defence dropped (answered like a success) or refused, by reason',
      labelNames: ['reason'] as const,
      registers: [metrics],
    })
    for (const reason of REJECTION_REASONS) rejected.inc({ reason }, 0)
    const suspects = new Counter({
      name: 'contact_suspect_total',
      help: 'Accepted contact messages delivered with a spam marker, by sign',
      labelNames: ['reason'] as const,
      registers: [metrics],
    })
    for (const reason of SUSPECT_REASONS) suspects.inc({ reason }, 0)
    const deliveries = new Counter({
      name: 'contact_deliveries_total',
      help: 'Delivery attempts of contact messages by result',
      labelNames: ['result'] as const,
      registers: [metrics],
    })
    for (const result of ['delivered', 'failed']) deliveries.inc({ result }, 0)
    // Visitors' messages only: the site's own mails are no leads.
    const counters = {
      delivered: (item: OutboxItem) => {
        if (isContactSubmission(item)) deliveries.inc({ result: 'delivered' })
      },
      failed: (item: OutboxItem) => {
        if (isContactSubmission(item)) deliveries.inc({ result: 'failed' })
      },
    }

    // SMTP socket timeouts stay well below the shutdown grace period, so stopping never has
    // to cut a delivery off (which could send a message twice).
    const smtpTimeout = Math.max(1_000, Math.floor(config.SHUTDOWN_GRACE_MS / 2))
    const transport = config.SMTP_URL
      ? nodemailer.createTransport({
          url: config.SMTP_URL,
          connectionTimeout: smtpTimeout,
          greetingTimeout: smtpTimeout,
          socketTimeout: smtpTimeout,
          // DKIM_*: every mail through this transport is signed (leads and the site's own).
          dkim: dkimSigning(config),
        })
      : null
    if (transport && config.DKIM_DOMAIN) {
      app.log.info(
        { domain: config.DKIM_DOMAIN, selector: config.DKIM_SELECTOR },
        'mails are DKIM-signed',
      )
    }
    const settings = { from: config.MAIL_FROM, to: namedRecipient(config.MAIL_TO, COMPANY.brand) }
    const send = transport
      ? async (item: OutboxItem) => {
          if (!isContactSubmission(item)) {
            await transport.sendMail(siteMail(item, settings))
            return
          }
          const t = app.i18n.getFixedT(item.message.locale, [...MAIL_NAMESPACES])
          await transport.sendMail(contactMail(item, settings, t))
        }
      : undefined
    if (!transport) {
      app.log.warn(
        { dir: config.REDIS_URL ? undefined : outbox.dir },
        config.REDIS_URL
          ? 'SMTP_URL is not set: contact messages wait in the Redis queue and are not sent'
          : 'SMTP_URL is not set: contact messages are kept in the outbox folder and not sent',
      )
    }

    let kick = () => {}
    let queue: RedisOutbox | null = null
    // Every series from the start, without Redis too (0): the alert and the dashboard read them.
    const diskRewrites = new Counter({
      name: 'contact_queue_disk_rewrites_total',
      help: "Rewrites of Redis's append-only file by result (REDIS_URL; the privacy policy's bound on its disk)",
      labelNames: ['result'] as const,
      registers: [metrics],
    })
    for (const result of DISK_REWRITE_RESULTS) diskRewrites.inc({ result }, 0)
    if (config.REDIS_URL) {
      queue = new RedisOutbox({
        url: config.REDIS_URL,
        send,
        log: app.log,
        counters,
        firstRetryMs,
        lockMs: redisLockMs,
      })
      const redisQueue = queue
      void checkRedisDurability(config.REDIS_URL, app.log)
      // Switching from the file outbox: what waits in the folder moves into the queue.
      const migration = migrateFileOutbox(outbox, redisQueue, app.log)
      // What was deleted leaves Redis's disk too, within REDIS_AOF_REWRITE_INTERVAL: until a
      // rewrite the append-only file keeps every command (docs/contact.md#retention-and-erasure;
      // docs/decisions/redis-aof-rewrite-interval.md).
      // Soon after each start and at each stop as well, so that pods restarting more often
      // than the interval never put the rewrite off. Each attempt is counted: an alert
      // (WebsiteQueueDiskNotRewritten) tells ops when the policy's bound does not hold.
      let isRewriting = false
      const rewrite = () => {
        if (isRewriting) return
        isRewriting = true
        redisQueue
          .rewriteAppendOnlyFile()
          .then((result) => {
            diskRewrites.inc({ result })
            if (result === 'no-aof') {
              app.log.warn(
                {},
                'Redis has no append-only file: the contact queue is not durable, and what was deleted stays in its RDB snapshots until the next one',
              )
            }
          })
          .catch((error: unknown) => {
            diskRewrites.inc({ result: 'failed' })
            app.log.warn({ err: error }, 'Redis append-only file not rewritten, retrying later')
          })
          .finally(() => (isRewriting = false))
      }
      const firstRewrite = setTimeout(
        rewrite,
        Math.min(firstDiskRewriteMs ?? FIRST_DISK_REWRITE_MS, config.REDIS_AOF_REWRITE_INTERVAL),
      )
      firstRewrite.unref()
      const rewrites = setInterval(rewrite, config.REDIS_AOF_REWRITE_INTERVAL)
      rewrites.unref()
      app.addHook('onClose', async () => {
        clearTimeout(firstRewrite)
        clearInterval(rewrites)
        migration.stop()
        // Started, not waited for: Redis finishes the rewrite on its own after this pod is gone.
        await redisQueue
          .startAppendOnlyFileRewrite()
          .catch((error: unknown) =>
            app.log.warn({ err: error }, 'Redis append-only file not rewritten at shutdown'),
          )
        await redisQueue.close()
        transport?.close()
      })
    } else if (send) {
      const worker = startDeliveryWorker({
        outbox,
        pollMs,
        firstRetryMs,
        log: app.log,
        counters,
        send,
      })
      kick = worker.kick
      app.addHook('onClose', async () => {
        await worker.stop()
        transport?.close()
      })
    }

    const purged = new Counter({
      name: 'contact_messages_purged_total',
      help: 'Contact messages deleted undelivered after CONTACT_RETENTION_DAYS',
      registers: [metrics],
    })
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
        purged.inc(entries.length)
      },
      // With Redis the folder only holds what has not moved into the queue yet.
      // Each store on its own: one failing never hides what the other deleted (log, metric).
      async purge(cutoff) {
        const sweep = (store: string, removed: Promise<RemovedEntry[]>) =>
          removed.catch((error: unknown) => {
            app.log.warn({ err: error, store }, 'retention sweep failed, tried again next hour')
            return []
          })
        const fromFolder = await sweep('folder', outbox.purgeReceivedBefore(cutoff))
        return queue
          ? [...fromFolder, ...(await sweep('redis', queue.purgeReceivedBefore(cutoff)))]
          : fromFolder
      },
    })
    app.addHook('onClose', () => retention.stop())

    // The quarantine (docs/contact.md#quarantine): dropped posts kept for an operator to look at.
    const quarantine = await openQuarantine(app, redis, outbox.dir)
    const quarantined = new Counter({
      name: 'contact_quarantined_total',
      help: 'Dropped contact posts kept in the quarantine, by the reason they were dropped',
      labelNames: ['reason'] as const,
      registers: [metrics],
    })
    for (const reason of DROP_REASONS) quarantined.inc({ reason }, 0)
    const quarantineRemoved = new Counter({
      name: 'contact_quarantine_removed_total',
      help: 'Quarantine entries deleted unreleased: pushed out by newer ones (evicted) or after QUARANTINE_DAYS (expired)',
      labelNames: ['cause'] as const,
      registers: [metrics],
    })
    for (const cause of ['evicted', 'expired']) quarantineRemoved.inc({ cause }, 0)
    // One count of the store for both gauges of a scrape (the folder's is a listing of it).
    let counted: { at: number; stats: Promise<QuarantineStats | null> } | null = null
    const quarantineSize = () => {
      if (!counted || Date.now() - counted.at > 1_000) {
        counted = { at: Date.now(), stats: quarantine ? quarantine.stats() : Promise.resolve(null) }
      }
      return counted.stats
    }
    new Gauge({
      name: 'contact_quarantine_entries',
      help: 'Dropped contact posts kept in the quarantine',
      registers: [metrics],
      async collect() {
        const stats = await quarantineSize().catch(() => undefined)
        if (stats !== undefined) this.set(stats?.entries ?? 0)
      },
    })
    new Gauge({
      name: 'contact_quarantine_bytes',
      help: 'Bytes the quarantine holds (bounded by QUARANTINE_MAX_BYTES)',
      registers: [metrics],
      async collect() {
        const stats = await quarantineSize().catch(() => undefined)
        if (stats !== undefined) this.set(stats?.bytes ?? 0)
      },
    })
    let purgeQuarantine: (now?: number) => Promise<number> = async () => 0
    if (quarantine) {
      const quarantineRetention = startRetention({
        days: config.QUARANTINE_DAYS,
        log: app.log,
        removed(entries) {
          app.log.info(
            { count: entries.length, days: config.QUARANTINE_DAYS },
            'quarantined contact posts deleted after the quarantine period',
          )
          quarantineRemoved.inc({ cause: 'expired' }, entries.length)
        },
        purge: (cutoff) =>
          quarantine.purgeReceivedBefore(cutoff).catch((error: unknown) => {
            app.log.warn({ err: error }, 'quarantine sweep failed, tried again next hour')
            return []
          }),
      })
      app.addHook('onClose', () => quarantineRetention.stop())
      purgeQuarantine = quarantineRetention.run
    }

    const states = ['waiting', 'active', 'delayed', 'failed'] as const
    new Gauge({
      name: 'contact_queue_jobs',
      help: 'Contact messages not yet delivered, by state (the file outbox has waiting only)',
      labelNames: ['state'] as const,
      registers: [metrics],
      async collect() {
        if (queue) {
          const counts = await queue.counts().catch(() => null)
          for (const state of states) this.set({ state }, counts?.[state] ?? 0)
        } else {
          this.set({ state: 'waiting' }, await outbox.size().catch(() => 0))
        }
      },
    })
    new Gauge({
      name: 'contact_outbox_depth',
      help: 'Contact messages waiting for delivery',
      registers: [metrics],
      async collect() {
        const counts = queue ? await queue.counts().catch(() => null) : null
        this.set(
          queue
            ? (counts?.waiting ?? 0) + (counts?.delayed ?? 0) + (counts?.active ?? 0)
            : await outbox.size().catch(() => 0),
        )
      },
    })

    // "Are leads arriving?": how long the longest-waiting message has waited, and whether
    // anything would send it. Same names with the file outbox and the Redis queue; with Redis
    // the folder may still hold messages not moved into the queue yet.
    new Gauge({
      name: 'contact_oldest_undelivered_age_seconds',
      help: 'Seconds since the oldest contact message not yet delivered came in (0 when none waits)',
      registers: [metrics],
      async collect() {
        let times
        try {
          times = await Promise.all([
            // No folder: nothing waits in it.
            outbox.oldestReceivedAt().catch(() => null),
            queue ? queue.oldestReceivedAt() : null,
          ])
        } catch {
          return // Redis unreachable: the last value stands (the 503 alert covers Redis)
        }
        const known = times.filter((time): time is number => time !== null && Number.isFinite(time))
        this.set(known.length ? Math.max(0, (Date.now() - Math.min(...known)) / 1000) : 0)
      },
    })
    new Gauge({
      name: 'contact_delivery_configured',
      help: 'Whether contact messages are sent at all (1: SMTP_URL is set; 0: they only wait)',
      registers: [metrics],
    }).set(transport ? 1 : 0)

    app.decorate('contact', {
      outbox,
      queue,
      quarantine,
      async accept(
        message: ContactMessage,
        id: string = randomUUID(),
        suspect: SuspectReason[] = [],
      ) {
        const submission = {
          id,
          receivedAt: new Date().toISOString(),
          message,
          ...(suspect.length > 0 ? { suspect } : {}),
        }
        if (queue) await queue.put(submission)
        else await outbox.put({ ...submission, attempts: 0, nextAttemptAt: 0 })
        submissions.inc({ outcome: 'accepted' })
        for (const reason of suspect) suspects.inc({ reason })
        kick()
        return id
      },
      async isReady() {
        return queue ? true : outbox.isWritable()
      },
      async queueSiteMail(mail: SiteMail) {
        if (queue) await queue.put(mail)
        else await outbox.put({ ...mail, attempts: 0, nextAttemptAt: 0 })
        kick()
      },
      reject(reason) {
        submissions.inc({ outcome: SUBMISSION_OUTCOME[REJECTIONS[reason].answer] })
        rejected.inc({ reason })
      },
      async drop(reason, post) {
        submissions.inc({ outcome: SUBMISSION_OUTCOME.dropped })
        rejected.inc({ reason })
        if (!quarantine || !post) return randomUUID()
        const entry = quarantineEntry(reason, post.form, post.message)
        try {
          const evicted = await quarantine.put(entry)
          quarantined.inc({ reason })
          if (evicted > 0) quarantineRemoved.inc({ cause: 'evicted' }, evicted)
        } catch (error) {
          // Answered like a success all the same: the post was dropped, only not kept.
          app.log.warn({ err: error, reason }, 'dropped contact post could not be quarantined')
        }
        return entry.id
      },
      count(outcome) {
        submissions.inc({ outcome })
      },
      purgeExpired: retention.run,
      purgeQuarantine: (now) => purgeQuarantine(now),
    })
  },
  { name: 'contact-delivery', dependencies: ['i18n'] },
)

/**
 * The quarantine's store: Redis with several replicas, else a folder in the outbox's; none
 * with `QUARANTINE_DAYS=0`. A folder that cannot be made is logged: drops are then not kept.
 */
async function openQuarantine(
  app: FastifyInstance,
  redis: Redis | null,
  outboxDir: string,
): Promise<Quarantine | null> {
  const { config } = app
  if (config.QUARANTINE_DAYS === 0) return null
  const limits = {
    maxEntries: config.QUARANTINE_MAX_ENTRIES,
    maxBytes: config.QUARANTINE_MAX_BYTES,
  }
  if (redis) return new RedisQuarantine(redis, limits)
  const folder = new FileQuarantine(join(outboxDir, QUARANTINE_FOLDER), limits)
  await folder.init().catch((error: unknown) => {
    app.log.error({ err: error, dir: folder.dir }, 'quarantine folder cannot be created')
  })
  return folder
}
