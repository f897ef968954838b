import { execFile } from 'node:child_process'
import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { SECURITY_TXT_DAYS } from '#server/routes/security-txt.ts'
import { factsStillSamples, SHIPPED_SAMPLES, type SampleFact } from '#shared/sample-facts.ts'
import { checkBuild, checkFacts, checkSite, expiryResult } from '#scripts/lib/go-live.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import { freePort } from '#tests/helpers/net.ts'
import { startTlsProxy, type TlsProxy } from '#tests/helpers/tls-proxy.ts'

const DAY = 86_400_000
const ROOT = join(import.meta.dirname, '..', '..')

/** Each check's outcome by name: `{ headers: true, metrics: false, … }`. */
const outcome = (results: { check: string; ok: boolean }[]) =>
  Object.fromEntries(results.map(({ check, ok }) => [check, ok]))

describe('npm run go-live: the company facts and the build', () => {
  it('fails while a company fact is the sample, naming each; passes once none is', () => {
    const samples = factsStillSamples()
    expect(samples.length).toBe(SHIPPED_SAMPLES.length)
    const result = checkFacts()
    expect(result.ok).toBe(false)
    for (const sample of samples) expect(result.detail).toContain(sample)
    expect(checkFacts([]).ok).toBe(true)
  })

  it('a replaced fact is no longer named', () => {
    const replaced: SampleFact[] = SHIPPED_SAMPLES.map((entry) =>
      entry.where === 'COMPANY.vatId' ? { ...entry, now: () => 'DE811907980' } : entry,
    )
    expect(factsStillSamples(replaced)).not.toContain(
      'VAT identification number (COMPANY.vatId): DE123456789',
    )
  })

  it('passes on a fresh build; fails 30 days before its security.txt lapses, and after', () => {
    expect(checkBuild(ROOT).ok, checkBuild(ROOT).detail).toBe(true)
    const root = mkdtempSync(join(tmpdir(), 'go-live-'))
    mkdirSync(join(root, 'dist'))
    // 19 days and 23 hours left: within the 30 days' margin.
    const built = Date.now() - (SECURITY_TXT_DAYS - 20) * DAY - 3_600_000
    writeFileSync(join(root, 'dist', 'build-info.json'), JSON.stringify({ timestamp: built }))
    const late = checkBuild(root)
    expect(late.ok).toBe(false)
    expect(late.detail).toMatch(/in 19 days/)
    expect(expiryResult('x', new Date(Date.now() - DAY)).detail).toMatch(/^expired on /)
    expect(checkBuild(mkdtempSync(join(tmpdir(), 'go-live-'))).detail).toBe(
      'no build: run npm run build',
    )
  })
})

describe('npm run go-live -- --url: a deployed site from outside', { timeout: 60_000 }, () => {
  let open: FastifyInstance
  let closed: FastifyInstance
  let tls: TlsProxy
  beforeAll(async () => {
    // As the chart runs it: HTTPS at the entry proxy, /metrics on a port of its own.
    const [port, metricsPort] = await Promise.all([freePort(), freePort()])
    closed = await buildTestApp({
      APP_BASE_URL: `https://127.0.0.1:${port}`,
      METRICS_PORT: String(metricsPort),
      HSTS_MAX_AGE: '31536000',
    })
    tls = await startTlsProxy(await closed.listen({ port: 0, host: '127.0.0.1' }), { port })
    // A misconfigured one: plain HTTP, /metrics on the site's port.
    open = await buildTestApp()
    await open.listen({ port: 0, host: '127.0.0.1' })
  })
  afterAll(async () => {
    await tls.close()
    await Promise.all([open.close(), closed.close()])
  })

  it('as the chart runs it: every check of the site passes but the samples', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'go-live-ca-'))
    writeFileSync(join(dir, 'ca.pem'), tls.certificate)
    const run = await promisify(execFile)(
      process.execPath,
      ['scripts/go-live.ts', '--url', tls.loopbackOrigin],
      { cwd: ROOT, env: { PATH: process.env.PATH, NODE_EXTRA_CA_CERTS: join(dir, 'ca.pem') } },
    ).then(
      ({ stdout }) => ({ code: 0, stdout }),
      (error: unknown) => error as { code: number; stdout: string },
    )
    const lines = run.stdout.split('\n')
    expect(run.code, run.stdout).toBe(1)
    for (const passed of [
      "the build's security.txt",
      'headers',
      'security.txt',
      'metrics',
      'contact',
    ]) {
      expect(
        lines.some((line) => line.startsWith(`✓ ${passed}: `)),
        `${passed}\n${run.stdout}`,
      ).toBe(true)
    }
    expect(lines.some((line) => line.startsWith('✗ company facts: '))).toBe(true)
    expect(lines.some((line) => line.startsWith('✗ legal notice: shows samples: '))).toBe(true)
    expect(lines).toContain('2 of 7 checks failed.')
  })

  it('finds public metrics, plain HTTP and the samples on the legal notice', async () => {
    const address = open.server.address()
    if (typeof address !== 'object' || address === null) throw new Error('not listening')
    const results = await checkSite(new URL(`http://127.0.0.1:${address.port}`))
    expect(outcome(results)).toEqual({
      headers: false,
      'security.txt': false,
      'legal notice': false,
      metrics: false,
      contact: true,
    })
    const detail = (check: string) => results.find((result) => result.check === check)?.detail
    expect(detail('headers')).toContain('is not HTTPS')
    expect(detail('metrics')).toBe('/metrics is public: serve it on METRICS_PORT only')
    expect(detail('legal notice')).toContain('DE123456789')
  })
})
