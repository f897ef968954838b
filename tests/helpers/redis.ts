import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { freePort } from '#tests/helpers/net.ts'

export const REDIS_SERVER = process.env.REDIS_SERVER_PATH ?? '/usr/bin/redis-server'

export function hasRedisServer(): boolean {
  return existsSync(REDIS_SERVER)
}

/** A throwaway `redis-server` (Debian's) on loopback, no persistence; stop() ends it. */
export async function startRedis() {
  const port = await freePort()
  const child: ChildProcess = spawn(
    REDIS_SERVER,
    ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  )
  let output = ''
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
  const started = Date.now()
  while (!output.includes('Ready to accept connections')) {
    if (child.exitCode !== null || Date.now() - started > 10_000) {
      throw new Error(`redis-server did not start:\n${output}`)
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  return {
    url: `redis://127.0.0.1:${port}`,
    async stop() {
      child.kill('SIGTERM')
      if (child.exitCode === null) await once(child, 'exit')
    },
  }
}
