import { once } from 'node:events'
import { createServer } from 'node:http'
import { describe, expect, it } from 'vitest'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import {
  OBSERVATORY_DIR,
  OBSERVATORY_VERSION,
  observatoryInstalled,
  observatoryScan,
} from '#tests/helpers/observatory.ts'
import { startTlsProxy, type TlsProxy } from '#tests/helpers/tls-proxy.ts'

/**
 * Mozilla's HTTP Observatory grades the site as deployed: HTTPS on 443 in front of the real
 * server (tests/helpers/tls-proxy.ts, as the ingress terminates TLS) and plain HTTP on 80
 * that redirects to it (as the ingress does). Its scanner knows no other ports, so this
 * needs root (CI runs as root) and the two ports free on 127.0.0.1.
 */
const reason = !observatoryInstalled()
  ? `the Observatory's scanner ${OBSERVATORY_VERSION} is not in ${OBSERVATORY_DIR} (node scripts/install-observatory.ts)`
  : process.getuid?.() !== 0
    ? 'ports 443 and 80 need root'
    : null
if (reason && process.env.CI) throw new Error(`CI runs the Observatory: ${reason}`)
if (reason) console.warn(`Skipping the Observatory scan: ${reason}`)

/** What the Observatory says of the site run with `env`, served as described above. */
async function scanSite(env: Record<string, string>) {
  const app = await buildTestApp(env)
  let tls: TlsProxy | undefined
  const redirect = createServer((request, response) => {
    response.writeHead(301, { location: `https://127.0.0.1${request.url ?? '/'}` }).end()
  })
  try {
    tls = await startTlsProxy(await app.listen({ port: 0, host: '127.0.0.1' }), { port: 443 })
    redirect.listen(80, '127.0.0.1')
    await once(redirect, 'listening')
    const result = await observatoryScan('127.0.0.1', tls.certificate)
    console.info(
      `Observatory ${OBSERVATORY_VERSION} (${JSON.stringify(env)}): ${result.grade}, ${result.score}\n` +
        result.tests
          .map(
            (test) =>
              `  ${test.pass ? 'pass' : 'FAIL'} ${test.name}: ${test.result} (${test.scoreModifier})`,
          )
          .join('\n'),
    )
    return result
  } finally {
    redirect.close()
    await tls?.close()
    await app.close()
  }
}

describe.skipIf(reason !== null)('Mozilla HTTP Observatory', () => {
  it('grades the site A+ with every test passed and a score of at least 125', async () => {
    const result = await scanSite({})
    expect(result.tests.filter((test) => !test.pass)).toEqual([])
    expect(result.grade).toBe('A+')
    expect(result.score).toBeGreaterThanOrEqual(125)
  }, 60_000)

  it('with a CDN, credits the integrity of its scripts: A+ and at least 130', async () => {
    const result = await scanSite({ CDN_URL: 'https://cdn.modernwerk.example' })
    expect(result.tests.filter((test) => !test.pass)).toEqual([])
    expect(result.tests).toContainEqual(
      expect.objectContaining({
        name: 'subresource-integrity',
        result: 'sri-implemented-and-external-scripts-loaded-securely',
      }),
    )
    expect(result.grade).toBe('A+')
    expect(result.score).toBeGreaterThanOrEqual(130)
  }, 60_000)
})
