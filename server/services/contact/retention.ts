import type { RemovedEntry } from './outbox.ts'
import type { DeliveryLog } from './delivery.ts'

const DAY_MS = 86_400_000

export type RetentionOptions = {
  /** How long an item may be kept (`CONTACT_RETENTION_DAYS`, `QUARANTINE_DAYS`). */
  days: number
  /** Removes what was received before the cutoff (epoch ms) from every store. */
  purge: (cutoff: number) => Promise<RemovedEntry[]>
  log: DeliveryLog
  /** Told what a sweep removed, if anything (log lines, the metric). */
  removed: (entries: RemovedEntry[]) => void
  /** How often the stores are swept; the first sweep runs a minute after start, when the
   * process is no longer busy starting (and a short-lived one never sweeps). */
  intervalMs?: number
}

/** What a sweep may take beyond its interval before the next one has removed a message. */
const SWEEP_MARGIN_MS = 60_000

/**
 * A retention promise of the privacy policy (docs/contact.md#retention-and-erasure): what a store
 * keeps (a message that could not be delivered, a quarantined post) is deleted no later than `days`
 * after its receipt. A sweep runs every `intervalMs`, so each one removes what would pass the
 * deadline before the next: an item goes up to an interval early, never late, and the policy
 * says "no later than" (docs/decisions/undeliverable-messages-deleted-no-later-than-retention.md).
 */
export function startRetention({
  days,
  purge,
  log,
  removed: onRemoved,
  intervalMs = 3_600_000,
}: RetentionOptions) {
  let running: Promise<number> | null = null
  let isStopped = false

  async function sweep(now: number): Promise<number> {
    const removed = await purge(now - days * DAY_MS + intervalMs + SWEEP_MARGIN_MS)
    if (removed.length > 0) onRemoved(removed)
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
