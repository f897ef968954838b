import type { RemovedEntry } from './outbox.ts'
import type { DeliveryLog } from './delivery.ts'

const DAY_MS = 86_400_000

export type RetentionOptions = {
  /** `CONTACT_RETENTION_DAYS`: how long an undeliverable message may be kept. */
  days: number
  /** Removes what was received before the cutoff (epoch ms) from every store. */
  purge: (cutoff: number) => Promise<RemovedEntry[]>
  log: DeliveryLog
  /** Counts each purged message (the metric). */
  purged: (count: number) => void
  /** How often the stores are swept; the first sweep runs a minute after start, when the
   * process is no longer busy starting (and a short-lived one never sweeps). */
  intervalMs?: number
}

/** What a sweep may take beyond its interval before the next one has removed a message. */
const SWEEP_MARGIN_MS = 60_000

/**
 * The retention promise of the privacy policy (README, Retention): a message that could not
 * be delivered is deleted no later than `days` after its receipt, with a warning per message
 * (its id, never its content) and the `contact_messages_purged_total` metric. A sweep runs
 * every `intervalMs`, so each one removes what would pass the deadline before the next: a
 * message goes up to an interval early, never late.
 */
export function startRetention({
  days,
  purge,
  log,
  purged,
  intervalMs = 3_600_000,
}: RetentionOptions) {
  let running: Promise<number> | null = null
  let isStopped = false

  async function sweep(now: number): Promise<number> {
    const removed = await purge(now - days * DAY_MS + intervalMs + SWEEP_MARGIN_MS)
    for (const entry of removed) {
      log.warn(
        { messageId: entry.id, receivedAt: entry.receivedAt, attempts: entry.attempts, days },
        'contact message deleted: not delivered within the retention period',
      )
    }
    if (removed.length > 0) purged(removed.length)
    return removed.length
  }

  /** One sweep as of `now` (tests pass a later clock); never two at once. */
  async function run(now = Date.now()): Promise<number> {
    while (running) await running.catch(() => 0)
    running = sweep(now)
    try {
      return await running
    } finally {
      running = null
    }
  }

  function scheduled() {
    if (isStopped) return
    run().catch((error: unknown) => log.warn({ err: error }, 'retention sweep failed'))
  }
  const timer = setInterval(scheduled, intervalMs)
  timer.unref()
  const first = setTimeout(scheduled, Math.min(60_000, intervalMs))
  first.unref()

  return {
    run,
    async stop() {
      isStopped = true
      clearInterval(timer)
      clearTimeout(first)
      await running?.catch(() => 0)
    },
  }
}
