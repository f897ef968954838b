// Child processes of the measuring scripts (bench, audit): loopback ports, the production
// server started exactly as `npm run serve` starts it, and a clean stop of everything started.
import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, readFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'

export const ROOT = join(import.meta.dirname, '..', '..')

const children = new Set<ChildProcess>()
/** Kill whatever is still running; also on exit and on Ctrl-C. */
export function killAll() {
  for (const child of children) child.kill('SIGKILL')
}
process.on('exit', killAll)
for (const signal of ['SIGINT', 'SIGTERM'] as const) process.on(signal, () => process.exit(130))

export function requireBuild() {
  if (!existsSync(join(ROOT, 'dist', 'build-info.json'))) {
    console.error('No production build: run `npm run build` first.')
    process.exit(2)
  }
}

export async function freePort(): Promise<number> {
  const server = createServer()
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const address = server.address()
  server.close()
  if (!address || typeof address === 'string') throw new Error('no port')
  return address.port
}

export function start(command: string, argv: string[], env: Record<string, string> = {}) {
  const child = spawn(command, argv, {
    cwd: ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (chunk: Buffer) => (stderr = (stderr + chunk.toString()).slice(-4000)))
  child.on('exit', (code, signal) => {
    children.delete(child)
    if (code && signal === null) console.error(`${command} exited ${code}:\n${stderr}`)
  })
  children.add(child)
  return child
}

export async function stop(child: ChildProcess) {
  if (child.exitCode !== null || child.signalCode !== null) return
  child.kill('SIGTERM')
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000)
  await once(child, 'exit')
  clearTimeout(timer)
}

/** Poll a URL until it answers below 500 (20 s at most). */
export async function waitFor(url: string, child: ChildProcess) {
  for (let attempt = 0; attempt < 200; attempt++) {
    if (child.exitCode !== null) throw new Error(`${url}: the server exited`)
    try {
      const response = await fetch(url)
      await response.arrayBuffer()
      if (response.status < 500) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${url} did not answer within 20 s`)
}

/** The Node flags of `npm run serve` (and the image), so the scripts run the same process. */
function serveFlags(): string[] {
  const { scripts } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>
  }
  const command = /\bnode\s+(.*?)\s*server\/main\.ts/.exec(scripts.serve ?? '')
  return command?.[1] ? command[1].split(/\s+/) : []
}

/**
 * The production server as `npm run serve` starts it, logging at its default level; with
 * `wrap`, started through that command (a memory cgroup: scripts/lib/memory-limit.ts).
 */
export async function startProductionServer(
  env: Record<string, string>,
  wrap: (command: string, args: string[]) => [string, string[]] = (command, args) => [
    command,
    args,
  ],
) {
  // /metrics on a port of its own, as by default, but a free one: 9464 may be taken here.
  const [port, metricsPort] = await Promise.all([freePort(), freePort()])
  const base = `http://127.0.0.1:${port}`
  const child = start(...wrap(process.execPath, [...serveFlags(), 'server/main.ts']), {
    NODE_ENV: 'production',
    PORT: String(port),
    METRICS_PORT: String(metricsPort),
    HOST: '127.0.0.1',
    APP_BASE_URL: base,
    ...env,
  })
  await waitFor(`${base}/readyz`, child)
  return { child, base, metricsUrl: `http://127.0.0.1:${metricsPort}/metrics` }
}
