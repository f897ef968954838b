import { Writable } from 'node:stream'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'

/**
 * Whose address a request has (`request.ip`, as the access log shows it shortened, and as the
 * rate limits key it): the connection's, unless the connection comes from a proxy
 * `TRUST_PROXY` lists (docs/decisions/trust-proxy-by-address.md). The rate limit's side:
 * tests/server/routes/contact.test.ts, "uses the client address from X-Forwarded-For only
 * behind a trusted proxy".
 */
const lines: string[] = []
let app: FastifyInstance

beforeAll(async () => {
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      lines.push(...chunk.toString('utf8').trim().split('\n'))
      done()
    },
  })
  app = await buildTestApp(
    { TRUST_PROXY: '10.0.0.0/8, fd00::/8' },
    { logger: { level: 'info', stream } },
  )
})

afterAll(async () => {
  await app.close()
})

/** The shortened client address the access log wrote for one request. */
async function loggedClient(remoteAddress: string, forwardedFor?: string): Promise<unknown> {
  const reqId = `trust-${Math.random().toString(36).slice(2)}`
  await app.inject({
    method: 'GET',
    url: '/robots.txt',
    remoteAddress,
    headers: {
      'x-request-id': reqId,
      ...(forwardedFor ? { 'x-forwarded-for': forwardedFor } : {}),
    },
  })
  const entry = lines
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .find((line) => line.msg === 'request completed' && line.reqId === reqId)
  return entry?.clientIp
}

describe('TRUST_PROXY', () => {
  it('ignores the X-Forwarded-For of a client that reaches the server directly', async () => {
    expect(await loggedClient('203.0.113.50', '192.0.2.9')).toBe('203.0.113.0')
    expect(await loggedClient('203.0.113.50', '10.9.9.9, 192.0.2.9')).toBe('203.0.113.0')
  })

  it("takes the client's address from a listed proxy, and from the nearest untrusted hop", async () => {
    expect(await loggedClient('10.1.2.3', '192.0.2.9')).toBe('192.0.2.0')
    // A client that sends its own header through the proxy cannot choose either: the proxy
    // appends the address it saw, and that hop is not trusted.
    expect(await loggedClient('10.1.2.3', '198.51.100.7, 192.0.2.9')).toBe('192.0.2.0')
    expect(await loggedClient('fd00::5', '2001:db8:1:2::9')).toBe('2001:db8:1::')
  })
})
