import type { OutboxEntry, FileOutbox, OutboxItem } from './outbox.ts'

export type DeliveryLog = {
  info: (details: object, message: string) => void
  warn: (details: object, message: string) => void
}

/** Told of each delivery and failed attempt, with what was (or was not) delivered. */
export type DeliveryCounters = {
  delivered: (item: OutboxItem) => void
  failed: (item: OutboxItem) => void
}

export type DeliveryWorkerOptions = {
  outbox: FileOutbox
  /** Hands one message to the SMTP server; resolves once the server accepted it. */
  send: (entry: OutboxEntry) => Promise<void>
  log: DeliveryLog
  counters: DeliveryCounters
  /** How often the outbox is looked at when nothing new arrives. */
  pollMs?: number
  /** The first retry's delay; each further failure doubles it. */
  firstRetryMs?: number
  now?: () => number
}

const MAX_RETRY_MS = 30 * 60_000

/** Exponential backoff with jitter: 5 s, 10 s, 20 s … at most 30 minutes. */
export function retryDelay(attempts: number, firstRetryMs = 5_000, random = Math.random): number {
  const base = Math.min(MAX_RETRY_MS, firstRetryMs * 2 ** Math.max(0, attempts - 1))
  return Math.round(base * (0.8 + 0.4 * random()))
}

/**
 * Delivers what the outbox holds, oldest first; a message leaves the outbox only after the
 * SMTP server accepted it. A failure schedules a retry in the message's own file, so restarts
 * keep the schedule. One pass at a time; `stop` waits for the pass in progress.
 */
export function startDeliveryWorker(options: DeliveryWorkerOptions) {
  const { outbox, send, log, counters, pollMs = 30_000, firstRetryMs, now = Date.now } = options
  let running: Promise<void> | null = null
  let isStopped = false
  let isKicked = false
  let timer: NodeJS.Timeout | undefined

  async function pass() {
    for (const entry of await outbox.list()) {
      if (isStopped) return
      if (entry.nextAttemptAt > now()) continue
      try {
        await send(entry)
        await outbox.remove(entry.id)
        counters.delivered(entry)
        log.info({ messageId: entry.id, attempts: entry.attempts + 1 }, 'contact message delivered')
      } catch (error) {
        const attempts = entry.attempts + 1
        const reason = error instanceof Error ? error.message : String(error)
        // Purged or erased while it was being sent: it stays gone.
        await outbox.update({
          ...entry,
          attempts,
          nextAttemptAt: now() + retryDelay(attempts, firstRetryMs),
          lastError: reason.slice(0, 200),
        })
        counters.failed(entry)
        log.warn(
          { messageId: entry.id, attempts, reason },
          'contact message delivery failed, will retry',
        )
      }
    }
  }

  function run() {
    if (isStopped) return
    if (running) {
      isKicked = true
      return
    }
    clearTimeout(timer)
    running = pass()
      .catch((error: unknown) => log.warn({ err: error }, 'outbox pass failed'))
      .finally(() => {
        running = null
        if (isStopped) return
        if (isKicked) {
          isKicked = false
          run()
        } else {
          timer = setTimeout(run, pollMs)
          timer.unref()
        }
      })
  }

  run()
  return {
    /** Look at the outbox now (a message was just accepted). */
    kick: run,
    async stop() {
      isStopped = true
      clearTimeout(timer)
      await running
    },
  }
}
