import { connect, type AddressInfo } from 'node:net'
import { Writable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import { withToken } from '#tests/helpers/form-token.ts'

const CSP =
  "default-src 'self';script-src 'self';style-src 'self';img-src 'self' data:;font-src 'self';" +
  "connect-src 'self';worker-src 'self';manifest-src 'self';object-src 'none';base-uri 'self';" +
  "form-action 'self';frame-ancestors 'none';" +
  "require-trusted-types-for 'script';trusted-types proof-of-work-worker;" +
  'report-to csp;report-uri /api/csp-reports'

const PAGE_TYPES = [
  '/',
  '/de/services',
  '/pl/services/managed-it',
  '/about',
  '/de/team/jonas-weber',
  '/contact',
  '/pl/privacy-policy',
  '/de/imprint',
  '/no-such-page',
]

const logLines: string[] = []
let app: FastifyInstance

beforeAll(async () => {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      logLines.push(...chunk.toString('utf8').trim().split('\n'))
      done()
    },
  })
  // The default request timeout (30 s): a 1 s one (the slow-body test's own app) could cut a
  // raw request off before it is read when this process is starved for a second.
  app = await buildTestApp({ CONTACT_RATE_MAX: '100' }, { logger: { level: 'info', stream } })
  await app.listen({ port: 0, host: '127.0.0.1' })
})

afterAll(async () => {
  await app.close()
})

/**
 * Raw HTTP over a socket: nothing normalizes the request on its way. Resolves when the server
 * closes the connection (`closedByServer`), or after `waitMs` when the client gives up: a
 * generous bound, as every request here is answered and closed at once on an idle machine.
 */
async function rawExchange(
  request: string,
  { target = app, waitMs = 15_000 }: { target?: FastifyInstance; waitMs?: number } = {},
): Promise<{ answer: string; closedByServer: boolean }> {
  const { port } = target.server.address() as AddressInfo
  const socket = connect(port, '127.0.0.1')
  socket.write(request)
  let answer = ''
  socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')))
  const closedByServer = await new Promise<boolean>((resolve) => {
    socket.on('close', () => resolve(true))
    setTimeout(() => {
      resolve(false)
      socket.destroy()
    }, waitMs).unref()
  })
  return { answer, closedByServer }
}

async function raw(request: string): Promise<string> {
  return (await rawExchange(request)).answer
}

describe('headers', () => {
  it.each(PAGE_TYPES)('%s carries the full set with the exact policy', async (url) => {
    const { headers } = await app.inject({ method: 'GET', url })
    expect(headers['content-security-policy']).toBe(CSP)
    expect(headers['strict-transport-security']).toBe('max-age=31536000; includeSubDomains')
    expect(headers['referrer-policy']).toBe('strict-origin-when-cross-origin')
    expect(headers['x-content-type-options']).toBe('nosniff')
    expect(headers['x-frame-options']).toBe('DENY')
    expect(headers['cross-origin-opener-policy']).toBe('same-origin')
    expect(headers['cross-origin-resource-policy']).toBe('same-origin')
    expect(headers['permissions-policy']).toContain('camera=()')
    expect(headers['x-build-id']).toBe(app.renderer.build.id)
    expect(headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
  })

  it('no markup of ours has inline styles or event handlers', async () => {
    for (const url of PAGE_TYPES) {
      const { body } = await app.inject({ method: 'GET', url })
      expect(body, url).not.toMatch(/ style="| on[a-z]+="/)
    }
  })

  it('HSTS can be switched off', async () => {
    const plain = await buildTestApp({ HSTS_MAX_AGE: '0' })
    try {
      const { headers } = await plain.inject({ method: 'GET', url: '/' })
      expect(headers['strict-transport-security']).toBeUndefined()
    } finally {
      await plain.close()
    }
  })
})

describe('abuse', () => {
  it.each([
    '/assets/..%2f..%2fpackage.json',
    '/assets/%2e%2e/%2e%2e/package.json',
    '/assets/%252e%252e%252f%252e%252e%252fpackage.json',
    '/assets/..%00/package.json',
    '/assets/.%2e/.%2e/server/main.ts',
    '/..%2f..%2fetc/passwd',
    '/.vite/manifest.json',
    '/.env',
  ])('%s reveals nothing', async (path) => {
    const answer = await raw(`GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`)
    expect(answer).toMatch(/^HTTP\/1\.1 (400|404)/)
    expect(answer).not.toContain('"dependencies"')
    expect(answer).not.toContain('root:x:0')
    expect(answer).not.toContain('buildApp')
  })

  it('refuses oversize headers with 431', async () => {
    const answer = await raw(
      `GET / HTTP/1.1\r\nHost: localhost\r\nX-Big: ${'a'.repeat(20_000)}\r\nConnection: close\r\n\r\n`,
    )
    expect(answer).toMatch(/^HTTP\/1\.1 431/)
  })

  it('gives up on a slow body when the request timeout fires', async () => {
    const strict = await buildTestApp({ REQUEST_TIMEOUT_MS: '1000' })
    try {
      await strict.listen({ port: 0, host: '127.0.0.1' })
      // The server, not the client, ends the exchange: the configured 1 s fired, as the
      // default (30 s) could not within the client's 15 s. No tighter bound: a busy machine
      // may fire a 1 s timer seconds late.
      const { answer, closedByServer } = await rawExchange(
        'POST /api/contact HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n' +
          'Content-Length: 200\r\n\r\n{"name":',
        { target: strict, waitMs: 15_000 },
      )
      expect(closedByServer).toBe(true)
      expect(answer === '' || /^HTTP\/1\.1 408/.test(answer)).toBe(true)
    } finally {
      await strict.close()
    }
  })

  it('replaces a bogus X-Request-Id and keeps a sane one', async () => {
    const bogus = await app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': '<script>alert(1)</script>' },
    })
    expect(bogus.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/)
    const sane = await app.inject({
      method: 'GET',
      url: '/healthz',
      headers: { 'x-request-id': 'ingress-7f3a.42' },
    })
    expect(sane.headers['x-request-id']).toBe('ingress-7f3a.42')
  })
})

describe('caching and compression', () => {
  it('pages: no-cache with a strong ETag, 304 when it matches', async () => {
    const first = await app.inject({ method: 'GET', url: '/de/services' })
    expect(first.headers['cache-control']).toBe('no-cache')
    const etag = String(first.headers.etag)
    expect(etag).toMatch(/^"[\w-]{27}"$/)
    const again = await app.inject({
      method: 'GET',
      url: '/de/services',
      headers: { 'if-none-match': etag },
    })
    expect(again.statusCode).toBe(304)
    expect(again.body).toBe('')
    const other = await app.inject({ method: 'GET', url: '/pl/services' })
    expect(other.headers.etag).not.toBe(etag)
    // The ETag stands for bytes: two renders of a page are identical.
    const second = await app.inject({ method: 'GET', url: '/de/services' })
    expect(second.body).toBe(first.body)
    const missing = await app.inject({ method: 'GET', url: '/de/nope' })
    expect(missing.headers.etag).toBeUndefined()
  })

  it('pages are compressed when the client accepts it', async () => {
    const page = await app.inject({
      method: 'GET',
      url: '/about',
      headers: { 'accept-encoding': 'br, gzip' },
    })
    expect(page.headers['content-encoding']).toBe('br')
    expect(String(page.headers.vary)).toMatch(/accept-encoding/i)
  })

  it.each([
    ['br, gzip', 'br'],
    ['gzip', 'gzip'],
    ['identity', undefined],
  ])('hashed assets with Accept-Encoding %s come as %s, immutable', async (accept, encoding) => {
    const page = await app.inject({ method: 'GET', url: '/' })
    const script = /src="(\/assets\/entry-client-[\w-]+\.js)"/.exec(page.body)?.[1] ?? ''
    const asset = await app.inject({
      method: 'GET',
      url: script,
      headers: { 'accept-encoding': accept },
    })
    expect(asset.statusCode).toBe(200)
    expect(asset.headers['content-encoding']).toBe(encoding)
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(String(asset.headers['content-type'])).toMatch(/javascript/)
  })
})

describe('metrics and logs', () => {
  it('count requests by route pattern and name the build; logs stay free of personal data', async () => {
    await app.inject({ method: 'GET', url: '/de/about' })
    await app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: await withToken({
        name: 'Jan Kowalski',
        email: 'jan.kowalski@example.pl',
        service: 'cloud',
        message: 'Prosimy o ofertę migracji naszych serwerów do Niemiec.',
        locale: 'pl',
      }),
    })
    const metrics = (await app.inject({ method: 'GET', url: '/metrics' })).body
    expect(metrics).toMatch(
      /http_request_duration_seconds_count\{route="\/\*",method="GET",status_code="200"\} \d+/,
    )
    expect(metrics).toMatch(
      /http_request_duration_seconds_count\{route="\/api\/contact",method="POST",status_code="202"\} 1/,
    )
    expect(metrics).toContain(`app_build_info{build_id="${app.renderer.build.id}"} 1`)
    expect(metrics).toContain('render_errors_total 0')
    expect(metrics).toContain('process_cpu_user_seconds_total')

    const entries = logLines.map((line) => JSON.parse(line) as Record<string, unknown>)
    const access = entries.filter((entry) => entry.msg === 'request completed')
    expect(access.length).toBeGreaterThan(5)
    for (const entry of access) {
      expect(typeof entry.reqId).toBe('string')
      expect(typeof entry.route).toBe('string')
      expect(typeof entry.durationMs).toBe('number')
      expect(String(entry.clientIp)).toMatch(/\.0$|::$/)
    }
    const all = logLines.join('\n')
    expect(all).not.toContain('jan.kowalski@example.pl')
    expect(all).not.toContain('Kowalski')
    expect(all).not.toContain('migracji')
  })

  it('METRICS_ALLOW keeps /metrics to the cluster', async () => {
    const restricted = await buildTestApp({ METRICS_ALLOW: '10.0.0.0/8, fd00::/8' })
    try {
      const outside = await restricted.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress: '203.0.113.9',
      })
      expect(outside.statusCode).toBe(404)
      const inside = await restricted.inject({
        method: 'GET',
        url: '/metrics',
        remoteAddress: '10.4.5.6',
      })
      expect(inside.statusCode).toBe(200)
    } finally {
      await restricted.close()
    }
  })
})
