import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { createServer } from 'node:net'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'

const MAIN = join(import.meta.dirname, '..', '..', 'server', 'main.ts')

function start(env: Record<string, string>) {
  const child = spawn(process.execPath, [MAIN], {
    env: { PATH: process.env.PATH, NODE_ENV: 'production', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = once(child, 'exit').then(([code]) => code as number | null)
  return { child, exited, output: () => ({ stdout, stderr }) }
}

async function freePort() {
  const server = createServer().listen(0, '127.0.0.1')
  await once(server, 'listening')
  const address = server.address()
  server.close()
  if (address === null || typeof address === 'string') throw new Error('no port')
  return address.port
}

async function waitForHealthy(port: number) {
  for (let attempt = 0; attempt < 100; attempt++) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`)
      if (response.ok) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error('server did not become healthy')
}

describe('server process', () => {
  it('refuses to start on an invalid variable and names it', async () => {
    const server = start({ PORT: 'eighty' })
    expect(await server.exited).toBe(1)
    expect(server.output().stderr).toContain('PORT="eighty"')
  })

  it('serves, then shuts down cleanly on SIGTERM with exit code 0', async () => {
    const port = await freePort()
    const server = start({ PORT: String(port), HOST: '127.0.0.1' })
    await waitForHealthy(port)
    const page = await fetch(`http://127.0.0.1:${port}/pl`)
    expect(page.status).toBe(200)
    expect(await page.text()).toContain('<html lang="pl"')

    server.child.kill('SIGTERM')
    expect(await server.exited).toBe(0)
    const lines = server
      .output()
      .stdout.trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg: string; url?: string })
    expect(lines.map((line) => line.msg)).toEqual(
      expect.arrayContaining(['shutting down', 'closed']),
    )
    // JSON logs, one line per request.
    expect(lines.filter((line) => line.url === '/pl')).toHaveLength(1)
  })
})
