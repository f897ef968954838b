import { resolve } from 'node:path'
import { startDeliveryWorker, type DeliveryCounters, type DeliveryLog } from './delivery.ts'
import type { Backlog } from './metrics.ts'
import { FileOutbox, type OutboxItem, type RemovedEntry } from './outbox.ts'
import { checkRedisDurability } from './redis-config.ts'
import { DISK_REWRITE_RESULTS, RedisOutbox } from './redis-outbox.ts'
import type { SendResult } from './sender.ts'

/**
 * Where accepted messages wait until the SMTP server took them, and the workers that deliver
 * them (docs/contact.md#contact-form-and-mail-delivery): a folder of files with one process,
 * a BullMQ queue in Redis with `REDIS_URL` (several replicas). The rest of the pipeline sees
 * one `MessageStore` either way.
 */

export type MessageStoreOptions = {
  /** `OUTBOX_DIR`: the folder, also with Redis (what an earlier release left there moves into
   * the queue). */
  outboxDir: string
  redisUrl: string | undefined
  /** `REDIS_AOF_REWRITE_INTERVAL` (ms). */
  diskRewriteIntervalMs: number
  /** Hands an item to the SMTP server; missing without `SMTP_URL` (then items only wait). */
  send: ((item: OutboxItem) => Promise<SendResult>) | undefined
  log: DeliveryLog
  counters: DeliveryCounters & {
    diskRewrite: (result: (typeof DISK_REWRITE_RESULTS)[number]) => void
  }
  /** Test knobs: how often the folder's worker looks, the first retry delay, how long a
   * Redis job stays locked by a worker that stopped answering, the first AOF rewrite. */
  pollMs?: number
  firstRetryMs?: number
  redisLockMs?: number
  firstDiskRewriteMs?: number
}

export type MessageStore = {
  outbox: FileOutbox
  queue: RedisOutbox | null
  /** Stores an item durably (fsynced, or acknowledged by Redis) and has it delivered. */
  put: (item: OutboxItem) => Promise<void>
  /** What waits, read from file names and job fields only. */
  backlog: () => Promise<Backlog>
  /** Could an item be stored right now? */
  isWritable: () => Promise<boolean>
  /** Deletes what came in before `cutoff` from each store, each on its own. */
  purgeReceivedBefore: (cutoff: number) => Promise<RemovedEntry[]>
  /**
   * A shutdown has begun: the workers start no further delivery (what waits stays for the next
   * process or another replica); a delivery in progress goes on.
   */
  stopDelivering: () => void
  /** Stops the workers, waiting for a delivery in progress. */
  close: () => Promise<void>
}

/**
 * The first rewrite of Redis's append-only file after a start: after the retention sweep's
 * first pass (a minute after the start), so what it deleted leaves the disk too, and long
 * before the interval when pods restart more often than that (rollouts, crash loops).
 */
const FIRST_DISK_REWRITE_MS = 90_000

/**
 * How old a reading of the queue's oldest message may be when a scrape uses it. Reading it
 * means looking at every job's fields (about 0.2 s for 12,000 waiting jobs here): at most this
 * often, in the background, so a scrape never waits for it. The age itself is computed at the
 * scrape; only a message delivered since the reading may still count.
 */
const OLDEST_READING_MS = 15_000

/**
 * When the longest-waiting message in the queue came in, read at most every `maxAgeMs`:
 * `get` gives the last reading at once and starts a new one when it is older than that (only
 * the first call waits for one); `note` takes in a message just stored, which can only make
 * the oldest older.
 */
function oldestReading(read: () => Promise<number | null>, maxAgeMs: number) {
  let last: { at: number; value: number | null } | null = null
  let reading: Promise<number | null> | null = null
  const refresh = () =>
    (reading ??= read()
      .then((value) => {
        last = { at: Date.now(), value }
        return value
      })
      .finally(() => (reading = null)))
  return {
    async get(): Promise<number | null> {
      if (!last) return refresh()
      if (Date.now() - last.at > maxAgeMs) void refresh().catch(() => {})
      return last.value
    },
    note(receivedAt: number) {
      if (last && Number.isFinite(receivedAt) && (last.value === null || receivedAt < last.value))
        last = { ...last, value: receivedAt }
    },
  }
}

/** The store `REDIS_URL` chooses, its workers started. */
export async function openMessageStore(options: MessageStoreOptions): Promise<MessageStore> {
  const outbox = new FileOutbox(resolve(options.outboxDir))
  try {
    await outbox.init()
  } catch (error) {
    // Start anyway: pages do not need it; the form answers 503 and the metric says why.
    options.log.error({ err: error, dir: outbox.dir }, 'outbox folder cannot be created')
  }
  return options.redisUrl
    ? redisStore(outbox, options.redisUrl, options)
    : folderStore(outbox, options)
}

/** One process: the folder, delivered by a worker that reads only what is due. */
function folderStore(outbox: FileOutbox, options: MessageStoreOptions): MessageStore {
  const { send, log, counters, pollMs, firstRetryMs } = options
  const worker = send
    ? startDeliveryWorker({ outbox, pollMs, firstRetryMs, log, counters, send })
    : null
  return {
    outbox,
    queue: null,
    async put(item) {
      await outbox.put(item)
      worker?.kick()
    },
    async backlog() {
      const { size, oldestReceivedAt } = await outbox.census()
      return { waiting: size, active: 0, delayed: 0, failed: 0, oldestReceivedAt }
    },
    isWritable: () => outbox.isWritable(),
    purgeReceivedBefore: (cutoff) => outbox.purgeReceivedBefore(cutoff),
    stopDelivering() {
      worker?.halt()
    },
    async close() {
      await worker?.stop()
    },
  }
}

/**
 * Several replicas: the queue in Redis, delivered by every replica's worker. What waits in the
 * folder (an earlier release's) moves into the queue; Redis's append-only file is rewritten
 * so that deleted messages leave its disk too.
 */
function redisStore(outbox: FileOutbox, url: string, options: MessageStoreOptions): MessageStore {
  const { send, log, counters, firstRetryMs, redisLockMs } = options
  const queue = new RedisOutbox({ url, send, log, counters, firstRetryMs, lockMs: redisLockMs })
  void checkRedisDurability(url, log)
  const migration = migrateFileOutbox(outbox, queue, log)
  const rewrites = rewriteDiskPeriodically(queue, options)
  const oldest = oldestReading(() => queue.oldestReceivedAt(), OLDEST_READING_MS)
  // Read once now, so the first scrape finds a reading.
  void oldest.get().catch(() => {})
  return {
    outbox,
    queue,
    async put(item) {
      await queue.put(item)
      oldest.note(Date.parse(item.receivedAt))
    },
    async backlog() {
      // The folder may still hold what has not moved into the queue yet.
      const [counts, oldestInQueue, folder] = await Promise.all([
        queue.counts(),
        oldest.get(),
        outbox.census().catch(() => ({ size: 0, oldestReceivedAt: null })),
      ])
      const times = [oldestInQueue, folder.oldestReceivedAt].filter((time) => time !== null)
      return {
        waiting: (counts.waiting ?? 0) + folder.size,
        active: counts.active ?? 0,
        delayed: counts.delayed ?? 0,
        failed: counts.failed ?? 0,
        oldestReceivedAt: times.length > 0 ? Math.min(...times) : null,
      }
    },
    async isWritable() {
      return (await queue.connection.ping().catch(() => null)) === 'PONG'
    },
    async purgeReceivedBefore(cutoff) {
      // Each store on its own: one failing never hides what the other deleted (log, metric).
      const sweep = (store: string, removed: Promise<RemovedEntry[]>) =>
        removed.catch((error: unknown) => {
          log.warn({ err: error, store }, 'retention sweep failed, tried again next hour')
          return []
        })
      return [
        ...(await sweep('folder', outbox.purgeReceivedBefore(cutoff))),
        ...(await sweep('redis', queue.purgeReceivedBefore(cutoff))),
      ]
    },
    stopDelivering() {
      queue.stopDelivering()
    },
    async close() {
      migration.stop()
      await rewrites.stop()
      await queue.close()
    },
  }
}

/**
 * What was deleted leaves Redis's disk too, within REDIS_AOF_REWRITE_INTERVAL: until a rewrite
 * the append-only file keeps every command (docs/contact.md#retention-and-erasure;
 * docs/decisions/redis-aof-rewrite-interval.md). Soon after each start and at each stop as
 * well, so that pods restarting more often than the interval never put the rewrite off. Each
 * attempt is counted: an alert (WebsiteQueueDiskNotRewritten) tells ops when the policy's
 * bound does not hold.
 */
function rewriteDiskPeriodically(queue: RedisOutbox, options: MessageStoreOptions) {
  const { log, counters, diskRewriteIntervalMs, firstDiskRewriteMs } = options
  let isRewriting = false
  const rewrite = () => {
    if (isRewriting) return
    isRewriting = true
    queue
      .rewriteAppendOnlyFile()
      .then((result) => {
        counters.diskRewrite(result)
        if (result === 'no-aof') {
          log.warn(
            {},
            'Redis has no append-only file: the contact queue is not durable, and what was deleted stays in its RDB snapshots until the next one',
          )
        }
      })
      .catch((error: unknown) => {
        counters.diskRewrite('failed')
        log.warn({ err: error }, 'Redis append-only file not rewritten, retrying later')
      })
      .finally(() => (isRewriting = false))
  }
  const first = setTimeout(
    rewrite,
    Math.min(firstDiskRewriteMs ?? FIRST_DISK_REWRITE_MS, diskRewriteIntervalMs),
  )
  first.unref()
  const timer = setInterval(rewrite, diskRewriteIntervalMs)
  timer.unref()
  return {
    async stop() {
      clearTimeout(first)
      clearInterval(timer)
      // Started, not waited for: Redis finishes the rewrite on its own after this pod is gone.
      await queue
        .startAppendOnlyFileRewrite()
        .catch((error: unknown) =>
          log.warn({ err: error }, 'Redis append-only file not rewritten at shutdown'),
        )
    },
  }
}

/**
 * Moves the messages of the file outbox into the Redis queue (same ids, so a move repeated
 * after a crash adds nothing twice), one at a time; a file goes only after Redis acknowledged
 * its job. Retried every 30 s while Redis is unreachable.
 */
function migrateFileOutbox(outbox: FileOutbox, queue: RedisOutbox, log: DeliveryLog) {
  let timer: NodeJS.Timeout | undefined
  let isStopped = false
  async function run() {
    let moved = 0
    try {
      for await (const { slot, item } of outbox.items()) {
        if (isStopped) return
        await queue.put(item)
        await outbox.remove(slot)
        moved++
      }
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return // no folder: nothing waits
      log.warn({ err: error, moved }, 'outbox folder not moved into Redis yet, retrying in 30 s')
      if (!isStopped) timer = setTimeout(() => void run(), 30_000)
      timer?.unref()
      return
    }
    if (moved > 0) {
      log.info({ moved }, 'contact messages moved from the outbox folder into the Redis queue')
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
