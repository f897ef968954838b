import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FileOutbox } from '#server/services/contact/index.ts'
import { factsStillSamples } from '#shared/sample-facts.ts'
import { eventually } from '#tests/helpers/eventually.ts'
import { freePort } from '#tests/helpers/net.ts'
import { startSmtpServer } from '#tests/helpers/smtp.ts'

const MAIN = join(import.meta.dirname, '..', '..', 'server', 'main.ts')

function start(env: Record<string, string>) {
  const child = spawn(process.execPath, [MAIN], {
    // The overload guard off: the shutdown test loads the process on a machine shared with
    // other test workers (tests/server/plugins/overload.test.ts tests the guard).
    env: {
      PATH: process.env.PATH,
      NODE_ENV: 'production',
      LOG_LEVEL: 'info',
      MAX_EVENT_LOOP_DELAY_MS: '0',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()))
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()))
  const exited = once(child, 'exit').then(([code]) => code as number | null)
  return { child, exited, output: () => ({ stdout, stderr }) }
}

/**
 * Until the process answers /healthz. Starting takes a second or two here, longer while other
 * jobs share the machine's two cores: a deadline, not a count of tries, and a generous one.
 */
async function waitForHealthy(port: number, timeoutMs = 30_000) {
  const started = Date.now()
  while (Date.now() - started < timeoutMs) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/healthz`)
      if (response.ok) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`server did not become healthy within ${timeoutMs} ms`)
}

// Each test starts a Node process (and waits for it to start and stop): more than vitest's
// 20 s may pass on a busy machine.
describe('server process', { timeout: 60_000 }, () => {
  it('refuses to start on an invalid variable and names it', async () => {
    const server = start({ PORT: 'eighty' })
    expect(await server.exited).toBe(1)
    expect(server.output().stderr).toContain('PORT="eighty"')
  })

  it('serves, then shuts down cleanly on SIGTERM with exit code 0', async () => {
    const [port, metricsPort] = await Promise.all([freePort(), freePort()])
    // /metrics on a port of its own, as by default; a free one, as 9464 may be taken here.
    const server = start({
      PORT: String(port),
      METRICS_PORT: String(metricsPort),
      HOST: '127.0.0.1',
    })
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
      .map((line) => JSON.parse(line) as { msg: string; path?: string; level: number })
    expect(lines.map((line) => line.msg)).toEqual(
      expect.arrayContaining(['shutting down', 'closed']),
    )
    // JSON logs, one line per request.
    expect(lines.filter((line) => line.path === '/pl')).toHaveLength(1)
    // The repository's sample company, named at the start (docs/go-live.md).
    const warning = lines.find((line) => line.msg.startsWith('SAMPLE COMPANY FACTS'))
    expect(warning).toMatchObject({ level: 40, samples: factsStillSamples() })
    expect(factsStillSamples()).toContain('VAT identification number (COMPANY.vatId): DE123456789')
  })

  it('with METRICS_PORT serves /metrics only there, and the site answers it with 404', async () => {
    const [port, metricsPort] = await Promise.all([freePort(), freePort()])
    const server = start({
      PORT: String(port),
      HOST: '127.0.0.1',
      METRICS_PORT: String(metricsPort),
    })
    try {
      await waitForHealthy(port)
      const onSite = await fetch(`http://127.0.0.1:${port}/metrics`)
      expect(onSite.status).toBe(404)
      expect(await onSite.text()).not.toContain('app_build_info')
      const metrics = await fetch(`http://127.0.0.1:${metricsPort}/metrics`)
      expect(metrics.status).toBe(200)
      expect(metrics.headers.get('content-type')).toContain('text/plain')
      const body = await metrics.text()
      expect(body).toContain('app_build_info{build_id=')
      expect(body).toContain('contact_delivery_configured 0')
      // Nothing else on that port: not the pages, not the health checks.
      expect((await fetch(`http://127.0.0.1:${metricsPort}/`)).status).toBe(404)
      expect((await fetch(`http://127.0.0.1:${metricsPort}/healthz`)).status).toBe(404)
    } finally {
      server.child.kill('SIGTERM')
    }
    expect(await server.exited).toBe(0)
  })

  it('exits with a message, not a stack trace, when its metrics port is taken', async () => {
    // A second instance on the same machine, whose METRICS_PORT the first one holds.
    const taken = createServer().listen(0, '127.0.0.1')
    await once(taken, 'listening')
    const metricsPort = (taken.address() as AddressInfo).port
    const port = await freePort()
    try {
      const server = start({
        PORT: String(port),
        METRICS_PORT: String(metricsPort),
        HOST: '127.0.0.1',
      })
      expect(await server.exited).toBe(1)
      const { stderr } = server.output()
      expect(stderr).toContain(`METRICS_PORT=${metricsPort}: 127.0.0.1:${metricsPort} is in use`)
      expect(stderr).toContain(`set METRICS_PORT=${port} (its PORT)`)
      expect(stderr).not.toMatch(/^\s+at /m)
      // Nothing was served: the site's port was never opened.
      await expect(fetch(`http://127.0.0.1:${port}/healthz`)).rejects.toThrow()
    } finally {
      taken.close()
    }
  })

  it('on SIGTERM waits past SHUTDOWN_GRACE_MS for the relay to answer a lead it has, which arrives once', async () => {
    // A relay that answers the end of DATA 8 s late, and a lead accepted before this process
    // started, sent by its worker at start.
    const smtp = await startSmtpServer()
    smtp.answerAfter(8_000)
    const outboxDir = mkdtempSync(join(tmpdir(), 'modernwerk-outbox-'))
    const outbox = new FileOutbox(outboxDir)
    await outbox.init()
    const id = crypto.randomUUID()
    await outbox.put({
      id,
      receivedAt: new Date().toISOString(),
      message: {
        name: 'Ada Lovelace',
        email: 'ada@example.com',
        service: 'cloud',
        subject: 'Shutdown test',
        message: 'We would like to move our ERP servers to a German data centre this year.',
        locale: 'en',
      },
    })
    const port = await freePort()
    const server = start({
      PORT: String(port),
      METRICS_PORT: String(port),
      HOST: '127.0.0.1',
      SMTP_URL: smtp.url,
      OUTBOX_DIR: outboxDir,
      // Far shorter than the relay's answer: the wait for it is the delivery's, not the grace.
      SHUTDOWN_GRACE_MS: '1000',
    })
    try {
      // Started, and the relay has the lead (its data ended) but has not answered yet.
      await waitForHealthy(port)
      await eventually(() => smtp.received.length === 1, 30_000)
      server.child.kill('SIGTERM')
      expect(await server.exited).toBe(0)
      const messages = server
        .output()
        .stdout.trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { msg: string }).msg)
      expect(messages).toEqual(
        expect.arrayContaining([
          'shutdown waits for a delivery in progress',
          'shutdown grace period over: waiting for the delivery in progress',
          'contact message delivered',
          'closed',
        ]),
      )
      expect(messages).not.toContain('contact message delivery failed, will retry')
      // Delivered: nothing is left for the next process to send again.
      expect(await outbox.size()).toBe(0)
      expect(smtp.received).toHaveLength(1)
      expect(smtp.received[0]?.mail.headers.get('x-contact-id')).toBe(id)
    } finally {
      server.child.kill('SIGKILL')
      await smtp.stop()
      rmSync(outboxDir, { recursive: true, force: true })
    }
  })

  it('finishes every request it took up before SIGTERM while shutting down under load', async () => {
    const port = await freePort()
    // The grace period only caps the shutdown (which ends as soon as the last response is
    // sent): generous, so that a starved machine does not turn a clean stop into exit code 1.
    const server = start({
      PORT: String(port),
      METRICS_PORT: String(port),
      HOST: '127.0.0.1',
      SHUTDOWN_GRACE_MS: '20000',
    })
    await waitForHealthy(port)
    const results: { startedAt: number; outcome: number | 'network-error' }[] = []
    let stopping = false
    const worker = async () => {
      while (!stopping && server.child.exitCode === null) {
        const startedAt = performance.now()
        try {
          const response = await fetch(`http://127.0.0.1:${port}/de/services`)
          await response.arrayBuffer()
          results.push({ startedAt, outcome: response.status })
        } catch {
          results.push({ startedAt, outcome: 'network-error' })
          await new Promise((resolve) => setTimeout(resolve, 20))
        }
      }
    }
    const workers = Array.from({ length: 16 }, worker)
    // Under load before the signal: two answers per worker, however long they take to come
    // (a fixed wait could end before a busy machine answered the 20 the test asks for).
    await eventually(() => results.length >= 32, 30_000)
    const signalAt = performance.now()
    server.child.kill('SIGTERM')
    const code = await server.exited
    stopping = true
    await Promise.all(workers)

    const before = results.filter((result) => result.startedAt < signalAt)
    // A request still on its way when the signal came may reach the server after it: Fastify
    // then answers 503 (go elsewhere) without taking it up, which is right. Nothing sent
    // before the signal may fail otherwise, and every request the server took up is answered
    // 200 (its log lines, below).
    const failed = before.filter((result) => result.outcome !== 200 && result.outcome !== 503)
    const after = results.filter((result) => result.startedAt >= signalAt)
    console.log(
      `shutdown under load: ${failed.length} of ${before.length} requests sent before SIGTERM failed ` +
        `(${before.filter((result) => result.outcome === 503).length} reached it after and were turned away); ` +
        `${after.length} sent after it were turned away (503 or refused), exit code ${code}`,
    )
    expect(code).toBe(0)
    expect(before.length).toBeGreaterThan(20)
    expect(failed).toEqual([])
    // Nothing after the signal is answered with anything but 200 or "go elsewhere".
    expect(after.every((result) => [200, 503, 'network-error'].includes(result.outcome))).toBe(true)
    // Every page served has its access-log line: lines go out in blocks, the last on exit.
    const served = server
      .output()
      .stdout.trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { msg: string; path?: string; statusCode?: number })
      .filter((line) => line.path === '/de/services')
    expect(served.every((line) => line.statusCode === 200)).toBe(true)
    expect(served).toHaveLength(results.filter((result) => result.outcome === 200).length)
  })
})
