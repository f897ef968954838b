import { Queue, Worker, type Job, type JobType, type JobsOptions } from 'bullmq'
import { Redis, type RedisOptions } from 'ioredis'
import { isContactSubmission, senderKey, type OutboxItem, type RemovedEntry } from './outbox.ts'
import { retryDelay, type DeliveryCounters, type DeliveryLog } from './delivery.ts'
import { withinTime } from '../../lib/within-time.ts'

export const QUEUE_NAME = 'contact'
export const QUEUE_PREFIX = 'modernwerk'
/** What a periodic rewrite of the append-only file ends in (the metric's `result` label). */
export const DISK_REWRITE_RESULTS = ['rewritten', 'no-aof', 'failed'] as const

export type RedisOutboxOptions = {
  url: string
  /** Hands one message to the SMTP server; resolves once the server accepted it. */
  send?: (item: OutboxItem) => Promise<void>
  log: DeliveryLog & { error: (details: object, message: string) => void }
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

/** A job's data: the message (or the site's own mail) until it is delivered, then its record. */
export type QueuedMessage = OutboxItem | DeliveredRecord

function isUndelivered(data: QueuedMessage | undefined): data is OutboxItem {
  return (
    typeof data === 'object' &&
    (('message' in data && typeof data.message === 'object') ||
      ('mail' in data && typeof data.mail === 'object'))
  )
}

/** Every state a job that was not delivered yet can be in. */
const UNDELIVERED_STATES = [
  'waiting',
  'delayed',
  'failed',
  'prioritized',
  'waiting-children',
] as const satisfies readonly JobType[]

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
  readonly #worker: Worker<QueuedMessage> | null
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
    this.#worker = new Worker<QueuedMessage>(
      QUEUE_NAME,
      async (job: Job<QueuedMessage>) => {
        if (!isUndelivered(job.data)) return // delivered before (a record only)
        this.#active++
        try {
          await send(job.data)
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
        settings: {
          backoffStrategy: (attemptsMade: number) => retryDelay(attemptsMade, firstRetryMs),
        },
        autorun: true,
      },
    )
    this.#worker.on('completed', (job) => {
      if (isUndelivered(job.data)) counters.delivered(job.data)
      log.info({ messageId: job.id, attempts: job.attemptsMade }, 'contact message delivered')
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
    const options: JobsOptions = {
      jobId: submission.id,
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
   * Retention (docs/contact.md#retention-and-erasure): removes every undelivered message received
   * before `cutoff` (epoch ms), and reduces delivered jobs that still carry their message to their
   * record. A job being delivered right now is left to the next sweep.
   */
  async purgeReceivedBefore(cutoff: number): Promise<RemovedEntry[]> {
    for (const job of await this.queue.getJobs(['completed'])) await this.#forget(job)
    const removed: RemovedEntry[] = []
    for (const job of await this.queue.getJobs([...UNDELIVERED_STATES])) {
      if (!job.id || !isUndelivered(job.data)) continue
      const received = Date.parse(job.data.receivedAt)
      const age = Number.isFinite(received) ? received : job.timestamp
      if (age >= cutoff) continue
      if ((await this.queue.remove(job.id)) === 1) {
        removed.push({ id: job.id, receivedAt: job.data.receivedAt, attempts: job.attemptsMade })
      }
    }
    return removed
  }

  /**
   * Erasure on request (GDPR Art. 17): removes every message from `email` that is still
   * stored, whatever its state. `busy` counts those being delivered at this moment (Redis
   * refuses to remove a locked job); they are reduced to their record once delivered.
   */
  async eraseSender(email: string): Promise<{ erased: number; busy: number }> {
    const key = senderKey(email)
    let erased = 0
    let busy = 0
    const jobs = await this.queue.getJobs([...UNDELIVERED_STATES, 'active', 'completed'])
    for (const job of jobs) {
      const data = job.data
      if (!job.id || !isUndelivered(data) || !isContactSubmission(data)) continue
      if (senderKey(data.message.email) !== key) continue
      if ((await this.queue.remove(job.id)) === 1) erased++
      else busy++
    }
    return { erased, busy }
  }

  /**
   * When the longest-waiting undelivered message came in (epoch ms), or null when none waits:
   * being delivered, waiting, waiting for a retry or set aside for the operator.
   */
  async oldestReceivedAt(): Promise<number | null> {
    let oldest: number | null = null
    for (const job of await this.queue.getJobs([...UNDELIVERED_STATES, 'active'])) {
      if (!isUndelivered(job.data)) continue
      const received = Date.parse(job.data.receivedAt)
      const time = Number.isFinite(received) ? received : job.timestamp
      if (oldest === null || time < oldest) oldest = time
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
   * Waits for the deliveries in progress (never cut off: that could send a message twice;
   * SMTP timeouts bound them), then stops. BullMQ's own close can wait for a blocking read on
   * a connection that is re-establishing itself; with no delivery left, that wait is cut short.
   */
  async close(): Promise<void> {
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
