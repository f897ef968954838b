import type { FileOutbox, OutboxItem } from './outbox.ts'
import type { SendResult } from './sender.ts'

export type DeliveryLog = {
  info: (details: object, message: string) => void
  warn: (details: object, message: string) => void
  error: (details: object, message: string) => void
}

/** Told of each delivery and failed attempt, with what was (or was not) delivered. */
export type DeliveryCounters = {
  delivered: (item: OutboxItem) => void
  failed: (item: OutboxItem) => void
}

export type DeliveryWorkerOptions = {
  outbox: FileOutbox
  /** Hands one message to the SMTP server; resolves once the server accepted it. */
  send: (item: OutboxItem) => Promise<SendResult>
  log: DeliveryLog
  counters: DeliveryCounters
  /** How often the outbox is looked at when nothing new arrives. */
  pollMs?: number
  /** The first retry's delay; each further failure doubles it. */
  firstRetryMs?: number
  now?: () => number
}

const MAX_RETRY_MS = 30 * 60_000
/** While the relay is down, the longest wait before it is tried again. */
const MAX_RELAY_PROBE_MS = 30_000

/**
 * Did a send fail for the relay as a whole (unreachable, refusing the connection, the sender,
 * the recipient or the login, timing out) rather than for this message? Only a refusal of the
 * message's content after DATA (nodemailer's `EMESSAGE`: too large, taken for spam) is the
 * message's own: the others would fail for every message alike, so none is tried until the
 * relay is tried again.
 */
export function isRelayFailure(error: unknown): boolean {
  return (error as { code?: unknown } | null)?.code !== 'EMESSAGE'
}

/** When to try a relay again that failed `failures` times in a row: 5 s, 10 s, 20 s, then every 30 s. */
export function relayProbeDelay(failures: number, firstRetryMs = 5_000): number {
  return Math.min(MAX_RELAY_PROBE_MS, retryDelay(failures, firstRetryMs))
}

/** Exponential backoff with jitter: 5 s, 10 s, 20 s … at most 30 minutes. */
export function retryDelay(attempts: number, firstRetryMs = 5_000, random = Math.random): number {
  const base = Math.min(MAX_RETRY_MS, firstRetryMs * 2 ** Math.max(0, attempts - 1))
  return Math.round(base * (0.8 + 0.4 * random()))
}

/**
 * Delivers what the outbox holds, oldest first; a message leaves the outbox only after the
 * SMTP server accepted it. A failure schedules a retry in the message's file name, so restarts
 * keep the schedule; a failure of the relay (`isRelayFailure`) also ends the pass: while the
 * relay is down each pass tries one message, not every one. A pass reads only the messages
 * that are due, one at a time. One pass at a time; `halt` ends it after the message being
 * sent, and `stop` waits for that send too.
 */
export function startDeliveryWorker(options: DeliveryWorkerOptions) {
  const { outbox, send, log, counters, pollMs = 30_000, firstRetryMs, now = Date.now } = options
  let running: Promise<void> | null = null
  let isStopped = false
  let isKicked = false
  let timer: NodeJS.Timeout | undefined
  /** When the last pass ended at a failure (0: it did not): the relay is taken to be down. */
  let failedAt = 0

  async function pass() {
    failedAt = 0
    const due = (await outbox.slots()).filter((slot) => slot.nextAttemptAt <= now())
    for (const slot of due) {
      const item = await outbox.read(slot)
      if (isStopped) return // halted (a shutdown): nothing more is sent by this process
      if (!item) continue // purged or erased meanwhile, or unreadable: left to the sweep
      let result: SendResult
      try {
        result = await send(item)
      } catch (error) {
        const attempts = slot.attempts + 1
        const reason = error instanceof Error ? error.message : String(error)
        // Purged or erased while it was being sent: it stays gone.
        await outbox.reschedule(slot, attempts, now() + retryDelay(attempts, firstRetryMs))
        counters.failed(item)
        log.warn(
          { messageId: slot.id, attempts, reason },
          'contact message delivery failed, will retry',
        )
        if (!isRelayFailure(error)) continue
        failedAt = now()
        return
      }
      await outbox.remove(slot)
      if (result === 'discarded') continue // logged by the sender
      counters.delivered(item)
      log.info({ messageId: slot.id, attempts: slot.attempts + 1 }, 'contact message delivered')
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

  /**
   * Starts no further send (a shutdown has begun); the one in progress goes on, never cut off:
   * the relay may have the message already.
   */
  function halt() {
    isStopped = true
    clearTimeout(timer)
  }

  run()
  return {
    /**
     * Look at the outbox now (a message was just accepted), unless the last pass found the
     * relay down: then the next pass comes when it is due, and a flood of accepted messages
     * does not list the folder once each.
     */
    kick() {
      if (failedAt > 0 && now() - failedAt < pollMs) return
      run()
    },
    halt,
    /** Halts, and resolves once the send in progress, if any, has its answer. */
    async stop() {
      halt()
      await running
    },
  }
}
