import { Redis } from 'ioredis'

type Log = {
  info: (details: object, message: string) => void
  warn: (details: object, message: string) => void
}

/**
 * What makes "Redis acknowledged the job" mean "the job survives a Redis crash", and what
 * keeps deleted data on Redis's disk no longer than the privacy policy says: the append-only
 * file is rewritten on a schedule (docs/contact.md#retention-and-erasure), RDB snapshots are not.
 */
const DURABLE_REDIS = {
  appendonly: 'yes',
  appendfsync: 'always',
  'maxmemory-policy': 'noeviction',
  save: '',
} as const

export type RedisSettings = Partial<Record<keyof typeof DURABLE_REDIS, string>>

/** The problems of a Redis configuration for the contact queue and the privacy policy's bound on
 * its disk, each naming its setting. */
export function durabilityProblems(settings: RedisSettings): string[] {
  const problems: string[] = []
  if (settings.appendonly !== 'yes') {
    problems.push('appendonly is not "yes": acknowledged messages are lost when Redis restarts')
  }
  if (settings.appendonly === 'yes' && settings.appendfsync === 'everysec') {
    problems.push('appendfsync is "everysec": a crash of the Redis node can lose the last second')
  } else if (settings.appendonly === 'yes' && settings.appendfsync !== 'always') {
    problems.push(`appendfsync is "${settings.appendfsync ?? '?'}": set it to "always"`)
  }
  if (settings['maxmemory-policy'] !== 'noeviction') {
    problems.push(
      `maxmemory-policy is "${settings['maxmemory-policy'] ?? '?'}": Redis may evict queued messages; set "noeviction"`,
    )
  }
  if (settings.save !== undefined && settings.save !== '') {
    problems.push(
      `save is "${settings.save}": RDB snapshots keep deleted messages and IP addresses on disk until the next one, past the privacy policy's bound; set save to ""`,
    )
  }
  return problems
}

async function readSettings(redis: Redis): Promise<RedisSettings> {
  const settings: RedisSettings = {}
  for (const name of Object.keys(DURABLE_REDIS) as (keyof typeof DURABLE_REDIS)[]) {
    const [, value] = (await redis.config('GET', name)) as [string, string]
    settings[name] = value
  }
  return settings
}

/**
 * Looks at the Redis settings once it is reachable and logs a warning naming each setting
 * that makes the queue unsafe. Managed Redis often forbids CONFIG: then an info line says what
 * to make sure of instead. Never blocks the start; retried every 30 s while Redis is down.
 */
export async function checkRedisDurability(url: string, log: Log): Promise<void> {
  const redis = new Redis(url, {
    lazyConnect: true,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    connectTimeout: 2_000,
    retryStrategy: () => null,
  })
  redis.on('error', () => {}) // reported below, once
  try {
    await redis.connect()
    let settings: RedisSettings
    try {
      settings = await readSettings(redis)
    } catch {
      log.info(
        { expected: DURABLE_REDIS },
        'Redis does not allow CONFIG GET: make sure it runs with these settings',
      )
      return
    }
    const problems = durabilityProblems(settings)
    for (const problem of problems)
      log.warn({ redis: settings }, `Redis is unsafe for the contact queue: ${problem}`)
    if (problems.length === 0) log.info({ redis: settings }, 'Redis is configured durably')
  } catch {
    log.warn({}, 'Redis is not reachable yet; its settings are checked again in 30 s')
    setTimeout(() => void checkRedisDurability(url, log), 30_000).unref()
  } finally {
    redis.disconnect()
  }
}
