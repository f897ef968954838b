import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The production server as a process of its own, for tests that stop, restart or replace it. */
export type SiteProcess = { child: ChildProcess; origin: string; stop: () => Promise<void> }

/**
 * Starts `node server/main.ts` of the tree `cwd` (the repository by default) on `port` of
 * loopback, with production settings, and resolves once it answers `/healthz`: `/metrics` on
 * the site's port (its own, 9464 by default, may be another process's here), no overload guard
 * (the browser shares the machine's cores with it), an outbox folder of its own unless `env`
 * names one. A deadline, not a count of tries: a busy machine takes many seconds to start it.
 * A process that exits first (a port another one holds, a bad setting) fails at once, so a
 * server left from an earlier run never answers in its place.
 */
export async function startSite(
  port: number,
  env: Record<string, string> = {},
  cwd?: string,
): Promise<SiteProcess> {
  const origin = `http://127.0.0.1:${port}`
  const child = spawn(process.execPath, ['server/main.ts'], {
    ...(cwd ? { cwd } : {}),
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      PORT: String(port),
      METRICS_PORT: String(port),
      HOST: '127.0.0.1',
      APP_BASE_URL: origin,
      LOG_LEVEL: 'fatal',
      OUTBOX_DIR: mkdtempSync(join(tmpdir(), 'modernwerk-site-outbox-')),
      MAX_EVENT_LOOP_DELAY_MS: '0',
      ...env,
    },
    stdio: 'ignore',
  })
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return
    child.kill('SIGTERM')
    await once(child, 'exit')
  }
  const started = Date.now()
  while (Date.now() - started < 30_000) {
    if (child.exitCode !== null)
      throw new Error(`the server on ${origin} exited (${child.exitCode})`)
    try {
      if ((await fetch(`${origin}/healthz`)).ok) return { child, origin, stop }
    } catch {
      // not yet listening
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  await stop()
  throw new Error(`the server on ${origin} did not start within 30 s`)
}
