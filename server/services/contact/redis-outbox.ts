import { Queue, Worker, type Job, type JobsOptions } from 'bullmq'
import { Redis, type RedisOptions } from 'ioredis'
import { isContactSubmission, senderKey, type OutboxItem, type RemovedEntry } from './outbox.ts'
import {
  isRelayFailure,
  relayProbeDelay,
  retryDelay,
  type DeliveryCounters,
  type DeliveryLog,
} from './delivery.ts'
import type { SendResult } from './sender.ts'
import { withinTime } from '../../lib/within-time.ts'

export const QUEUE_NAME = 'contact'
export const QUEUE_PREFIX = 'modernwerk'
/** What a periodic rewrite of the append-only file ends in (the metric's `result` label). */
export const DISK_REWRITE_RESULTS = ['rewritten', 'no-aof', 'failed'] as const

export type RedisOutboxOptions = {
  url: string
  /** Hands one message to the SMTP server; resolves once the server accepted it. */
  send?: (item: OutboxItem) => Promise<SendResult>
  log: DeliveryLog
  counters: DeliveryCounters
  /** The first retry's delay; each further failure doubles it, up to 30 minutes. */
  firstRetryMs?: number
  /** How long a job may stay locked by a worker that stopped answering (default 10 s). */
  lockMs?: number
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/**
 * How long a visitor's submission waits for Redis's acknowledgement. Commands fail at once
 * while the connection is down, but BullMQ can wait for a connection that is re-establishing
 * itself; the visitor then gets the 503 after this, not a hang. A job that lands later is the
 * same submission id: the form's retry adds no second lead.
 */
const PUT_TIMEOUT_MS = 2_000

/** Delivery is retried for as long as SMTP is down: no message ends after N attempts. */
const ATTEMPTS = 1_000_000
/**
 * Delivered jobs are kept this long, so a repeated submission of the same id is no new lead;
 * by then they hold a `DeliveredRecord` only (docs/contact.md#retention-and-erasure).
 */
const KEEP_COMPLETED_SECONDS = 14 * 24 * 3600

/** What stays of a delivered message: its id and timestamps, no personal data. */
type DeliveredRecord = { id: string; receivedAt: string; deliveredAt: string }

/**
 * Longer data than a `DeliveredRecord` ever is (its id and two ISO times: about 110
 * characters): a job whose data is longer still carries a message.
 */
const DELIVERED_RECORD_MAX_LENGTH = 200

/** A job's id: a UUID (the submission's, or one made from a week for the site's summary). */
const JOB_ID_GLOB = '????????-????-????-????-????????????'

/**
 * Per job of KEYS (ARGV[1]: the completed set, ARGV[i + 1]: the i-th job's id): its
 * `timestamp` ('' when gone), the length of its data, and its score in the completed set (''
 * when not completed). Strings and numbers only: a Lua nil would cut the reply short.
 */
const JOB_FIELDS_SCRIPT = `
local reply = {}
for i, key in ipairs(KEYS) do
  reply[#reply + 1] = redis.call('HGET', key, 'timestamp') or ''
  reply[#reply + 1] = redis.call('HSTRLEN', key, 'data')
  reply[#reply + 1] = redis.call('ZSCORE', ARGV[1], ARGV[i + 1]) or ''
end
return reply`

/** What the worker made of a job. */
type WorkerResult = SendResult | 'delivered before'

/** What `#jobPages` tells of a job, read without its data. */
type JobSummary = { id: string; timestamp: number; dataLength: number; isCompleted: boolean }

/** A job's data: the message (or the site's own mail) until it is delivered, then its record. */
export type QueuedMessage = OutboxItem | DeliveredRecord

/**
 * Is the job's data still an item to send (anything but a delivered one's record)? What it
 * holds is read again as data when the mail is written (`storedItem`).
 */
function isUndelivered(data: QueuedMessage | undefined): data is OutboxItem {
  // Typed as what was put there; read as what Redis may hold.
  const value: unknown = data
  return typeof value === 'object' && value !== null && !('deliveredAt' in value)
}

/**
 * The connection a web request waits on: no offline queue and one-second commands, so with
 * Redis unreachable `put` fails at once and the visitor gets a 503 instead of a hang.
 */
export function failFastRedis(url: string, extra: RedisOptions = {}): Redis {
  return new Redis(url, {
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: 1_000,
    commandTimeout: 1_000,
    ...extra,
  })
}

/**
 * The contact outbox of several replicas: a BullMQ queue in Redis. Every replica enqueues and
 * every replica's worker delivers. A job's id is the submission's id, so a repeated request
 * is no second lead; a job is acknowledged only after Redis answered (durable with AOF and
 * `appendfsync always`, which `checkRedisDurability` looks at).
 */
export class RedisOutbox {
  readonly queue: Queue<QueuedMessage>
  readonly #worker: Worker<QueuedMessage, WorkerResult> | null
  readonly #connections: Redis[] = []
  /** The connection the queue writes on (commands to Redis itself go here too). */
  readonly #producer: Redis

  /** The producer connection, for an operator's command that needs Redis beside the queue. */
  get connection(): Redis {
    return this.#producer
  }
  readonly #log: DeliveryLog
  /** Deliveries in progress in this process. */
  #active = 0
  /** Failures of the relay in a row, as this process saw them. */
  #relayFailures = 0
  /** A shutdown has begun: no job is delivered by this process any more. */
  #isStopping = false

  constructor(options: RedisOutboxOptions) {
    const { url, send, log, counters, firstRetryMs, lockMs = 10_000 } = options
    this.#log = log
    const producer = failFastRedis(url)
    this.#producer = producer
    this.#connections.push(producer)
    this.queue = new Queue<QueuedMessage>(QUEUE_NAME, {
      connection: producer,
      prefix: QUEUE_PREFIX,
    })
    this.queue.on('error', (error) => log.warn({ err: error }, 'contact queue: Redis error'))

    if (!send) {
      this.#worker = null
      return
    }
    // Workers block on Redis and must retry for ever (BullMQ requires `null` here).
    const consumer = new Redis(url, { maxRetriesPerRequest: null, connectTimeout: 2_000 })
    this.#connections.push(consumer)
    this.#worker = new Worker<QueuedMessage, WorkerResult>(
      QUEUE_NAME,
      async (job: Job<QueuedMessage>): Promise<WorkerResult> => {
        if (!isUndelivered(job.data)) return 'delivered before' // a record only
        // Taken up as the shutdown began: back to waiting, its attempts unchanged, for another
        // replica (or this one's successor).
        if (this.#isStopping) throw Worker.RateLimitError()
        this.#active++
        try {
          const result = await send(job.data)
          this.#relayFailures = 0
          return result
        } catch (error) {
          if (!isRelayFailure(error)) throw error // this message's own: its job retries
          // The relay is down: no job of any replica is tried until it is tried again (this
          // one goes back to waiting, its attempts unchanged), instead of every waiting job
          // failing on its own schedule (docs/decisions/outbox-listed-by-name.md).
          this.#relayFailures++
          counters.failed(job.data)
          log.warn(
            {
              messageId: job.id,
              relayFailures: this.#relayFailures,
              reason: error instanceof Error ? error.message : String(error),
            },
            'contact message delivery failed: the mail server is not reachable, will retry',
          )
          await this.queue.rateLimit(relayProbeDelay(this.#relayFailures, firstRetryMs))
          throw Worker.RateLimitError()
        } finally {
          this.#active--
        }
      },
      {
        connection: consumer,
        prefix: QUEUE_PREFIX,
        concurrency: 2,
        // A replica killed mid-delivery: another one takes the job over within seconds.
        lockDuration: lockMs,
        stalledInterval: Math.max(1_000, Math.round(lockMs / 2)),
        // BullMQ's default (1) fails a job interrupted twice, whatever its attempts.
        maxStalledCount: 1_000,
        // Needed for the manual rate limit while the relay is down (BullMQ reads its `max`);
        // far above what a site sends, so it never holds a delivery back otherwise.
        limiter: { max: 1_000, duration: 1_000 },
        settings: {
          backoffStrategy: (attemptsMade: number) => retryDelay(attemptsMade, firstRetryMs),
        },
        autorun: true,
      },
    )
    this.#worker.on('completed', (job, result) => {
      // Discarded (logged by the sender): its data goes like a delivered one's.
      if (result === 'sent') {
        if (isUndelivered(job.data)) counters.delivered(job.data)
        log.info({ messageId: job.id, attempts: job.attemptsMade }, 'contact message delivered')
      }
      void this.#forget(job)
    })
    this.#worker.on('failed', (job, error) => {
      if (isUndelivered(job?.data)) counters.failed(job.data)
      log.warn(
        { messageId: job?.id, attempts: job?.attemptsMade, reason: error.message },
        'contact message delivery failed, will retry',
      )
    })
    this.#worker.on('error', (error) => log.warn({ err: error }, 'contact worker: Redis error'))
  }

  /** Resolves once Redis acknowledged the job; an id already known is not added again. */
  async put(submission: OutboxItem): Promise<void> {
    const received = Date.parse(submission.receivedAt)
    const options: JobsOptions = {
      jobId: submission.id,
      // When it came in, not when it was queued (a message moved from the folder came in
      // before): the metrics and the retention sweep read this field, not the message.
      ...(Number.isFinite(received) ? { timestamp: received } : {}),
      attempts: ATTEMPTS,
      backoff: { type: 'custom' },
      removeOnComplete: { age: KEEP_COMPLETED_SECONDS },
      removeOnFail: false,
    }
    await withinTime(
      this.queue.add('message', submission, options),
      PUT_TIMEOUT_MS,
      'Redis did not acknowledge the contact message in time',
    )
  }

  /**
   * Replaces a delivered job's message with its record. Not part of the delivery itself (a
   * failure there would send the message again); `purgeReceivedBefore` repeats what a crash
   * between the two left undone.
   */
  async #forget(job: Job<QueuedMessage>): Promise<boolean> {
    if (!isUndelivered(job.data)) return false
    const record: DeliveredRecord = {
      id: job.data.id,
      receivedAt: job.data.receivedAt,
      deliveredAt: new Date(job.finishedOn ?? Date.now()).toISOString(),
    }
    try {
      await job.updateData(record)
      return true
    } catch (error) {
      // Removed meanwhile, or Redis away: the next sweep tries again.
      this.#log.warn({ err: error, messageId: job.id }, 'delivered contact message not reduced yet')
      return false
    }
  }

  /**
   * Every job of the queue, a page at a time: its id, when its message came in (the job's
   * `timestamp`), whether it was delivered and how long its data is, without its data. Redis's
   * SCAN returns every key that exists for the whole scan, whatever state its job moves
   * through meanwhile (a list or a sorted set read by ranges could skip one that moved).
   */
  async *#jobPages(): AsyncGenerator<JobSummary[]> {
    // Once the connection is up (the fail-fast connection refuses commands before).
    await this.queue.waitUntilReady()
    const client = this.#producer
    const prefix = this.queue.toKey('')
    const completed = this.queue.toKey('completed')
    let cursor = '0'
    do {
      const [next, keys] = await client.scan(
        cursor,
        'MATCH',
        `${prefix}${JOB_ID_GLOB}`,
        'COUNT',
        1000,
      )
      cursor = next
      if (keys.length === 0) continue
      // One script per page, not three commands per job: Redis reads the fields in well
      // under a millisecond, where a pipeline of 3,000 commands costs ioredis most of a second.
      const fields = (await client.eval(
        JOB_FIELDS_SCRIPT,
        keys.length,
        ...keys,
        completed,
        ...keys.map((key) => key.slice(prefix.length)),
      )) as (string | number)[]
      const page: JobSummary[] = []
      keys.forEach((key, index) => {
        const [timestamp, length, score] = fields.slice(3 * index, 3 * index + 3)
        if (timestamp === '' || timestamp === undefined) return // removed meanwhile
        page.push({
          id: key.slice(prefix.length),
          timestamp: Number(timestamp),
          dataLength: Number(length),
          isCompleted: score !== '',
        })
      })
      yield page
    } while (cursor !== '0')
  }

  /**
   * Retention (docs/contact.md#retention-and-erasure): removes every undelivered message received
   * before `cutoff` (epoch ms), and reduces delivered jobs that still carry their message to their
   * record. Reads only the jobs it changes, one at a time. A job being delivered right now is
   * left to the next sweep.
   */
  async purgeReceivedBefore(cutoff: number): Promise<RemovedEntry[]> {
    const removed: RemovedEntry[] = []
    for await (const page of this.#jobPages()) {
      for (const summary of page) {
        if (summary.isCompleted) {
          if (summary.dataLength > DELIVERED_RECORD_MAX_LENGTH) {
            const job = await this.queue.getJob(summary.id)
            if (job) await this.#forget(job)
          }
          continue
        }
        if (!(summary.timestamp < cutoff)) continue
        const job = await this.queue.getJob(summary.id)
        if (!job?.id || !isUndelivered(job.data)) continue
        const received = Date.parse(job.data.receivedAt)
        if ((Number.isFinite(received) ? received : job.timestamp) >= cutoff) continue
        if ((await this.queue.remove(job.id)) === 1) {
          removed.push({ id: job.id, receivedAt: job.data.receivedAt, attempts: job.attemptsMade })
        }
      }
    }
    return removed
  }

  /**
   * Erasure on request (GDPR Art. 17): removes every message from `email` that is still
   * stored, whatever its state, reading one job at a time. `busy` counts those being
   * delivered at this moment (Redis refuses to remove a locked job); they are reduced to their
   * record once delivered.
   */
  async eraseSender(email: string): Promise<{ erased: number; busy: number }> {
    const key = senderKey(email)
    let erased = 0
    let busy = 0
    for await (const page of this.#jobPages()) {
      for (const summary of page) {
        if (summary.dataLength <= DELIVERED_RECORD_MAX_LENGTH) continue // a record: no address
        const job = await this.queue.getJob(summary.id)
        const data = job?.data
        if (!job?.id || !isUndelivered(data) || !isContactSubmission(data)) continue
        if (senderKey(data.message.email) !== key) continue
        if ((await this.queue.remove(job.id)) === 1) erased++
        else busy++
      }
    }
    return { erased, busy }
  }

  /**
   * When the longest-waiting undelivered message came in (epoch ms), or null when none waits:
   * being delivered, waiting, waiting for a retry or set aside for the operator. Read from the
   * jobs' timestamps, never their data.
   */
  async oldestReceivedAt(): Promise<number | null> {
    let oldest: number | null = null
    for await (const page of this.#jobPages()) {
      for (const { timestamp, isCompleted } of page) {
        if (isCompleted || !Number.isFinite(timestamp)) continue
        if (oldest === null || timestamp < oldest) oldest = timestamp
      }
    }
    return oldest
  }

  /**
   * Has Redis rewrite its append-only file and waits until it is done (at most `timeoutMs`),
   * so that what was deleted leaves the disk too: until a rewrite the AOF keeps every command,
   * the message a delivery reduced or an erasure removed included. Nothing to do without AOF.
   * A rewrite already running started before what was just deleted: it is waited for, and
   * then another one is started.
   */
  async rewriteAppendOnlyFile(timeoutMs = 60_000): Promise<'rewritten' | 'no-aof'> {
    const client = this.#producer
    const started = Date.now()
    const persistence = () => this.#persistence()
    const isBusy = (fields: Map<string, string>) =>
      fields.get('aof_rewrite_in_progress') === '1' || fields.get('aof_rewrite_scheduled') === '1'
    const settle = async () => {
      while (isBusy(await persistence())) {
        if (Date.now() - started > timeoutMs) throw new Error('Redis AOF rewrite still running')
        await sleep(100)
      }
    }
    if ((await persistence()).get('aof_enabled') !== '1') return 'no-aof'
    await settle()
    const before = Number((await persistence()).get('aof_rewrites') ?? 0)
    await client.call('BGREWRITEAOF')
    await settle()
    const after = await persistence()
    if (
      after.get('aof_last_bgrewrite_status') !== 'ok' ||
      Number(after.get('aof_rewrites')) <= before
    ) {
      throw new Error('Redis AOF rewrite failed (INFO persistence: aof_last_bgrewrite_status)')
    }
    return 'rewritten'
  }

  /**
   * Starts a rewrite of the append-only file and returns once Redis has taken it (a stopping
   * pod's last one: Redis finishes it on its own). Nothing to do without AOF. Redis queues a
   * request behind a running snapshot, but refuses one while a rewrite runs: that rewrite
   * began before this pod's last deletions and may keep them, so its end is waited for, at
   * most `waitMs` (then Redis's refusal is the error).
   */
  async startAppendOnlyFileRewrite(waitMs = 5_000): Promise<'started' | 'no-aof'> {
    const until = Date.now() + waitMs
    let fields = await this.#persistence()
    if (fields.get('aof_enabled') !== '1') return 'no-aof'
    while (fields.get('aof_rewrite_in_progress') === '1' && Date.now() < until) {
      await sleep(100)
      fields = await this.#persistence()
    }
    await this.#producer.call('BGREWRITEAOF')
    return 'started'
  }

  /** `INFO persistence`, field by field. */
  async #persistence(): Promise<Map<string, string>> {
    const fields = new Map<string, string>()
    for (const line of (await this.#producer.info('persistence')).split(/\r?\n/)) {
      const [name, value] = line.split(':')
      if (name && value !== undefined) fields.set(name, value.trim())
    }
    return fields
  }

  /** Jobs by state, for the metrics. */
  async counts() {
    return this.queue.getJobCounts('waiting', 'active', 'delayed', 'failed', 'completed')
  }

  /** Move every failed job back to waiting (the operator's retry command). */
  async retryFailed(): Promise<number> {
    const failed = await this.queue.getJobCountByTypes('failed')
    await this.queue.retryJobs({ state: 'failed' })
    return failed
  }

  /**
   * A shutdown has begun: the worker takes up no further job; the deliveries in progress go on,
   * their jobs still locked, and `close` waits for them.
   */
  stopDelivering(): void {
    this.#isStopping = true
    // BullMQ's close fetches nothing more, then waits for the jobs in progress.
    this.#worker?.close().catch((error: unknown) => {
      this.#log.warn({ err: error }, 'contact worker: closing failed')
    })
  }

  /**
   * Waits for the deliveries in progress (never cut off: that could send a message twice;
   * SMTP timeouts bound them), then stops. BullMQ's own close can wait for a blocking read on
   * a connection that is re-establishing itself; with no delivery left, that wait is cut short.
   */
  async close(): Promise<void> {
    this.#isStopping = true
    const closing = Promise.all([this.#worker?.close(), this.queue.close()])
    while (this.#active > 0) await sleep(50)
    await Promise.race([closing, sleep(2_000)])
    for (const connection of this.#connections) connection.disconnect()
  }
}

/** The queue as an operator's command uses it: no worker, no logs, no metrics. */
export function operatorQueue(url: string): RedisOutbox {
  const quiet = () => {}
  return new RedisOutbox({
    url,
    log: { info: quiet, warn: quiet, error: quiet },
    counters: { delivered: quiet, failed: quiet },
  })
}
