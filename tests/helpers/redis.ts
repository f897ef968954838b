import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { Queue } from 'bullmq'
import { QUEUE_NAME, QUEUE_PREFIX } from '#server/services/contact/redis-outbox.ts'
import { freePort } from '#tests/helpers/net.ts'

export const REDIS_SERVER = process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server'

export function hasRedisServer(): boolean {
  return existsSync(REDIS_SERVER)
}

export type RedisOptions = {
  /**
   * As ops should run it for the contact queue: AOF with `appendfsync always` and
   * `noeviction`, in a folder that outlives a restart. Otherwise nothing is persisted.
   */
  durable?: boolean
}

/**
 * A throwaway `redis-server` (Debian's) on loopback. `stop()` ends it (SIGTERM, or SIGKILL to
 * play a crash); `start()` brings it back on the same port with the same data folder.
 */
export async function startRedis({ durable = false }: RedisOptions = {}) {
  const port = await freePort()
  const dir = mkdtempSync(join(tmpdir(), 'modernwerk-redis-'))
  const settings = durable
    ? ['--appendonly', 'yes', '--appendfsync', 'always', '--maxmemory-policy', 'noeviction']
    : ['--appendonly', 'no']
  let child: ChildProcess | null = null

  async function start() {
    const current = spawn(
      REDIS_SERVER,
      ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--dir', dir, ...settings],
      { stdio: ['ignore', 'pipe', 'pipe'] },
    )
    child = current
    let output = ''
    current.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
    const started = Date.now()
    // Ready in milliseconds here; the bound is for a machine busy with other jobs (and an
    // append-only file to load after a restart).
    while (!output.includes('Ready to accept connections')) {
      if (current.exitCode !== null || Date.now() - started > 30_000) {
        throw new Error(`redis-server did not start:\n${output}`)
      }
      await new Promise((resolve) => setTimeout(resolve, 50))
    }
  }

  async function stop(signal: 'SIGTERM' | 'SIGKILL' = 'SIGTERM') {
    const current = child
    child = null
    if (!current || current.exitCode !== null) return
    current.kill(signal)
    await once(current, 'exit')
  }

  await start()
  return {
    url: `redis://127.0.0.1:${port}`,
    /** Redis's data folder (`--dir`): the append-only files are in `appendonlydir/`. */
    dir,
    start,
    stop,
    /** Stop for good and remove the data folder. */
    async dispose() {
      await stop()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

/** Removes every contact job, whatever its state: each test starts from an empty queue. */
export async function emptyContactQueue(url: string) {
  const queue = new Queue(QUEUE_NAME, { connection: { url }, prefix: QUEUE_PREFIX })
  await queue.obliterate({ force: true })
  await queue.close()
}
