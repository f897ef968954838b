import { Counter, Gauge, type Registry } from 'prom-client'
import { DROP_REASONS, REJECTION_REASONS, SUSPECT_REASONS } from '../spam/index.ts'
import type { QuarantineStats } from './quarantine.ts'
import { DISK_REWRITE_RESULTS } from './redis-outbox.ts'

/**
 * What waits for delivery, as the store reads it without reading a message: counts by state
 * (the folder has waiting only) and when the longest-waiting one came in (epoch ms).
 */
export type Backlog = {
  waiting: number
  active: number
  delayed: number
  failed: number
  oldestReceivedAt: number | null
}

export type ContactMetricSources = {
  /** Read once per scrape for the three backlog gauges; rejects when the store cannot be read. */
  backlog: () => Promise<Backlog>
  /** Read once per scrape for the two quarantine gauges; null without a quarantine. */
  quarantine: () => Promise<QuarantineStats | null>
  /** Could a message be stored right now (the folder takes a file, Redis answers)? */
  isWritable: () => Promise<boolean>
  /** Whether `SMTP_URL` is set. */
  isDeliveryConfigured: boolean
}

/** How a rejection counts among the submissions (`contact_submissions_total{outcome}`). */
export const REJECTION_OUTCOME = {
  refused: 'refused',
  renewed: 'expired',
  dropped: 'spam',
} as const

/** Every outcome of `contact_submissions_total`, each at 0 from the start. */
const SUBMISSION_OUTCOMES = [
  'accepted',
  'invalid',
  'rateLimited',
  'error',
  ...Object.values(REJECTION_OUTCOME),
] as const

/**
 * One reading for the gauges of a scrape: prom-client collects every metric at once, so the
 * gauges that ask while a reading is under way share it.
 */
function shared<T>(read: () => Promise<T>): () => Promise<T> {
  let reading: Promise<T> | null = null
  return () => {
    reading ??= read().finally(() => (reading = null))
    return reading
  }
}

/**
 * The contact pipeline's metrics (docs/operations.md, "Metrics"): counters the pipeline
 * increments, every label value at 0 from the start (a rate over them is defined before the
 * first event), and gauges read from the stores at each scrape, from their listings and job
 * fields only, never their messages.
 */
export function contactMetrics(registers: Registry, sources: ContactMetricSources) {
  const counter = <L extends string>(
    name: string,
    help: string,
    labelName?: L,
    values: readonly string[] = [],
  ) => {
    const metric = new Counter<L>({
      name,
      help,
      labelNames: labelName ? [labelName] : [],
      registers: [registers],
    })
    for (const value of values) metric.inc({ [labelName as L]: value } as Record<L, string>, 0)
    return metric
  }
  const counters = {
    submissions: counter(
      'contact_submissions_total',
      'Contact form submissions by outcome',
      'outcome',
      SUBMISSION_OUTCOMES,
    ),
    rejected: counter(
      'contact_rejected_total',
      'Contact posts the spam defence dropped (answered like a success) or refused, by reason',
      'reason',
      REJECTION_REASONS,
    ),
    suspects: counter(
      'contact_suspect_total',
      'Accepted contact messages delivered with a spam marker, by sign',
      'reason',
      SUSPECT_REASONS,
    ),
    deliveries: counter(
      'contact_deliveries_total',
      'Delivery attempts of contact messages by result',
      'result',
      ['delivered', 'failed'],
    ),
    // Without Redis too (0): the alert and the dashboard read them.
    diskRewrites: counter(
      'contact_queue_disk_rewrites_total',
      "Rewrites of Redis's append-only file by result (REDIS_URL; the privacy policy's bound on its disk)",
      'result',
      DISK_REWRITE_RESULTS,
    ),
    purged: counter(
      'contact_messages_purged_total',
      'Contact messages deleted undelivered after CONTACT_RETENTION_DAYS',
    ),
    quarantined: counter(
      'contact_quarantined_total',
      'Dropped contact posts kept in the quarantine, by the reason they were dropped',
      'reason',
      DROP_REASONS,
    ),
    digests: counter(
      'contact_quarantine_digests_total',
      'Daily digests of held-back messages for MAIL_TO, by outcome: queued, nothing (nothing held back), failed (to be tried again)',
      'outcome',
      ['queued', 'nothing', 'failed'],
    ),
    quarantineRemoved: counter(
      'contact_quarantine_removed_total',
      'Quarantine entries deleted unreleased: pushed out by newer ones (evicted) or after QUARANTINE_DAYS (expired)',
      'cause',
      ['evicted', 'expired'],
    ),
  }

  const quarantine = shared(sources.quarantine)
  new Gauge({
    name: 'contact_quarantine_entries',
    help: 'Dropped contact posts kept in the quarantine',
    registers: [registers],
    async collect() {
      const stats = await quarantine().catch(() => undefined)
      if (stats !== undefined) this.set(stats?.entries ?? 0)
    },
  })
  new Gauge({
    name: 'contact_quarantine_bytes',
    help: 'Bytes the quarantine holds (bounded by QUARANTINE_MAX_BYTES)',
    registers: [registers],
    async collect() {
      const stats = await quarantine().catch(() => undefined)
      if (stats !== undefined) this.set(stats?.bytes ?? 0)
    },
  })

  // A store that cannot be read (Redis unreachable): the last values stand (the 503 alert
  // covers Redis).
  const backlog = shared(() => sources.backlog().catch(() => null))
  const states = ['waiting', 'active', 'delayed', 'failed'] as const
  new Gauge({
    name: 'contact_queue_jobs',
    help: 'Contact messages not yet delivered, by state (the file outbox has waiting only)',
    labelNames: ['state'] as const,
    registers: [registers],
    async collect() {
      const counts = await backlog()
      if (counts) for (const state of states) this.set({ state }, counts[state])
    },
  })
  new Gauge({
    name: 'contact_outbox_depth',
    help: 'Contact messages waiting for delivery',
    registers: [registers],
    async collect() {
      const counts = await backlog()
      if (counts) this.set(counts.waiting + counts.delayed + counts.active)
    },
  })
  // "Are leads arriving?": how long the longest-waiting message has waited, and whether
  // anything would send it. Same names with the file outbox and the Redis queue.
  new Gauge({
    name: 'contact_oldest_undelivered_age_seconds',
    help: 'Seconds since the oldest contact message not yet delivered came in (0 when none waits)',
    registers: [registers],
    async collect() {
      const counts = await backlog()
      if (!counts) return
      const oldest = counts.oldestReceivedAt
      this.set(oldest === null ? 0 : Math.max(0, (Date.now() - oldest) / 1000))
    },
  })
  new Gauge({
    name: 'contact_store_writable',
    help: 'Whether a contact message could be stored now (1: the outbox folder takes a file, or Redis answers; 0: the form answers 503)',
    registers: [registers],
    async collect() {
      this.set((await sources.isWritable().catch(() => false)) ? 1 : 0)
    },
  })
  new Gauge({
    name: 'contact_delivery_configured',
    help: 'Whether contact messages are sent at all (1: SMTP_URL is set; 0: they only wait)',
    registers: [registers],
  }).set(sources.isDeliveryConfigured ? 1 : 0)

  return counters
}
