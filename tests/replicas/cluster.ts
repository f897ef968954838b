import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { TEST_TOKEN_SECRET } from '#tests/helpers/form-token.ts'
import { freePort } from '#tests/helpers/net.ts'
import { NGINX, nginxConfigHead } from '#tests/helpers/nginx.ts'

const ROOT = join(import.meta.dirname, '..', '..')
export { NGINX }

/** One app process: `node server/main.ts` on its own port, as a pod runs it. */
type Instance = { port: number; child: ChildProcess; output: () => string }

/**
 * Several production app processes behind nginx (round robin), as replicas behind an
 * ingress: `start(i)` / `kill(i)` replace one of them, the balancer keeps its port.
 */
export async function startCluster(options: {
  size: number
  env: Record<string, string>
  /** The tree to run (`server/`, `dist/`, …); the repository by default. */
  root?: string
  /**
   * `round-robin`, or `client-hash`: each client address sticks to one instance while it is
   * up, as an ingress with `upstream-hash-by: $binary_remote_addr` does.
   */
  balance?: 'round-robin' | 'client-hash'
  /** The balancer's port (a free one by default). */
  port?: number
}) {
  const work = mkdtempSync(join(tmpdir(), 'modernwerk-cluster-'))
  // Each instance's /metrics on a port of its own, as in a pod (not 9464: one per process);
  // all asked for at once, so that no two are the same.
  const allPorts = await Promise.all(Array.from({ length: 2 * options.size }, () => freePort()))
  const [ports, metricsPorts] = [allPorts.slice(0, options.size), allPorts.slice(options.size)]
  const instances: (Instance | null)[] = ports.map(() => null)

  async function start(index: number, env: Record<string, string> = {}, root = options.root) {
    const [port, metricsPort] = [ports[index], metricsPorts[index]]
    if (port === undefined || metricsPort === undefined) throw new Error(`no instance ${index}`)
    const outbox = join(work, `outbox-${index}`)
    mkdirSync(outbox, { recursive: true })
    const child = spawn(process.execPath, ['--max-semi-space-size=8', 'server/main.ts'], {
      cwd: root ?? ROOT,
      env: {
        ...process.env,
        NODE_ENV: 'production',
        HOST: '127.0.0.1',
        PORT: String(port),
        METRICS_PORT: String(metricsPort),
        LOG_LEVEL: 'warn',
        OUTBOX_DIR: outbox,
        // Several processes, nginx and Redis share two cores: no replica may refuse a test's
        // request as overloaded (tests/server/plugins/overload.test.ts tests the guard).
        MAX_EVENT_LOOP_DELAY_MS: '0',
        // One key for every replica, as the chart sets it: a form token one replica issued
        // verifies on every other (tests/helpers/form-token.ts signs with it too).
        CONTACT_TOKEN_SECRET: TEST_TOKEN_SECRET,
        ...options.env,
        ...env,
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let output = ''
    child.stdout.on(
      'data',
      (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)),
    )
    child.stderr.on(
      'data',
      (chunk: Buffer) => (output = (output + chunk.toString()).slice(-20_000)),
    )
    instances[index] = { port, child, output: () => output }
    await waitForReady(`http://127.0.0.1:${port}/readyz`, child, () => output)
  }

  async function kill(index: number, signal: 'SIGKILL' | 'SIGTERM' = 'SIGKILL') {
    const instance = instances[index]
    instances[index] = null
    if (!instance || instance.child.exitCode !== null) return
    instance.child.kill(signal)
    await once(instance.child, 'exit')
  }

  for (let index = 0; index < options.size; index++) await start(index)

  const balancerPort = options.port ?? (await freePort())
  let nginx: ChildProcess | null = null
  if (NGINX) {
    const conf = join(work, 'nginx.conf')
    writeFileSync(
      conf,
      `${nginxConfigHead(work, 1024)}  upstream app {
${options.balance === 'client-hash' ? '    hash $binary_remote_addr consistent;\n' : ''}${ports.map((port) => `    server 127.0.0.1:${port} max_fails=0;`).join('\n')}
    keepalive 16;
  }
  server {
    listen 127.0.0.1:${balancerPort};
    location / {
      proxy_pass http://app;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_set_header Host $host;
      # A replaced instance: idempotent requests go to the next one, POSTs are not repeated.
      proxy_next_upstream error timeout http_502;
      proxy_connect_timeout 1s;
    }
  }
}
`,
    )
    nginx = spawn(NGINX, ['-c', conf, '-e', join(work, 'nginx-error.log')], {
      stdio: ['ignore', 'ignore', 'pipe'],
    })
    await waitForReady(`http://127.0.0.1:${balancerPort}/healthz`, nginx, () => '')
  }

  return {
    url: `http://127.0.0.1:${balancerPort}`,
    instances,
    instanceUrl: (index: number) => `http://127.0.0.1:${ports[index] ?? 0}`,
    /** Where instance `index` serves `/metrics`. */
    metricsUrl: (index: number) => `http://127.0.0.1:${metricsPorts[index] ?? 0}/metrics`,
    start,
    kill,
    async stop() {
      await Promise.all(instances.map((_, index) => kill(index, 'SIGTERM')))
      if (nginx && nginx.exitCode === null) {
        nginx.kill('SIGTERM')
        await once(nginx, 'exit')
      }
      rmSync(work, { recursive: true, force: true })
    },
  }
}

/**
 * Until `url` answers 200. A deadline, not a count of tries (each try takes longer on a busy
 * machine), and a generous one: an instance starts in a second or two, but several of them,
 * nginx and Redis share CI's two cores with whatever else runs there.
 */
async function waitForReady(
  url: string,
  child: ChildProcess,
  output: () => string,
  timeoutMs = 60_000,
) {
  const started = Date.now()
  while (Date.now() - started < timeoutMs) {
    if (child.exitCode !== null) throw new Error(`${url}: the process exited\n${output()}`)
    try {
      const response = await fetch(url)
      await response.arrayBuffer()
      if (response.ok) return
    } catch {
      // not yet listening
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
  throw new Error(`${url} was not ready within ${timeoutMs} ms\n${output()}`)
}
