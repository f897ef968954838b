import { execFileSync } from 'node:child_process'
import { createHash, X509Certificate } from 'node:crypto'
import { once } from 'node:events'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { request as httpRequest } from 'node:http'
import { createServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** The host name the HTTPS tests use; the browser maps it to 127.0.0.1. */
export const TLS_HOST = 'site.test'

export type TlsProxy = {
  /** `https://site.test:<port>` */
  origin: string
  /** `https://127.0.0.1:<port>`: the same server, for browsers that cannot map a host name. */
  loopbackOrigin: string
  port: number
  /** The certificate's public key hash, for Chromium's `--ignore-certificate-errors-spki-list`. */
  spki: string
  /** The certificate (PEM), for clients told to trust it (`NODE_EXTRA_CA_CERTS`). */
  certificate: string
  /** Every request passed on: method, path and content type, in order. */
  requests: { method: string; path: string; contentType: string }[]
  close(): Promise<void>
}

/**
 * HTTPS in front of a test server, as an ingress terminates TLS in front of the site: a
 * certificate made for `site.test` and 127.0.0.1 for this run (openssl, a day, EC P-256),
 * every request passed to `target` with `X-Forwarded-Proto: https`. Browsers report CSP violations through
 * the Reporting API only from secure contexts on a real host name, which this gives them.
 */
export async function startTlsProxy(
  target: string,
  { port: listenPort = 0 }: { port?: number } = {},
): Promise<TlsProxy> {
  const dir = mkdtempSync(join(tmpdir(), 'modernwerk-tls-'))
  const keyFile = join(dir, 'key.pem')
  const certFile = join(dir, 'cert.pem')
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'ec',
      '-pkeyopt',
      'ec_paramgen_curve:prime256v1',
      '-nodes',
      '-days',
      '1',
      '-subj',
      `/CN=${TLS_HOST}`,
      '-addext',
      `subjectAltName=DNS:${TLS_HOST},IP:127.0.0.1`,
      '-keyout',
      keyFile,
      '-out',
      certFile,
    ],
    { stdio: 'ignore' },
  )
  const key = readFileSync(keyFile)
  const cert = readFileSync(certFile)
  rmSync(dir, { recursive: true, force: true })
  const spki = createHash('sha256')
    .update(new X509Certificate(cert).publicKey.export({ type: 'spki', format: 'der' }))
    .digest('base64')

  const upstream = new URL(target)
  const requests: TlsProxy['requests'] = []
  const server = createServer({ key, cert }, (request, response) => {
    requests.push({
      method: request.method ?? '',
      path: request.url ?? '',
      contentType: request.headers['content-type'] ?? '',
    })
    const forwarded = httpRequest(
      {
        host: upstream.hostname,
        port: upstream.port,
        method: request.method,
        path: request.url,
        headers: { ...request.headers, 'x-forwarded-proto': 'https' },
      },
      (answer) => {
        response.writeHead(answer.statusCode ?? 502, answer.headers)
        answer.pipe(response)
      },
    )
    forwarded.on('error', () => response.destroy())
    request.pipe(forwarded)
  })
  server.listen(listenPort, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    origin: `https://${TLS_HOST}:${port}`,
    loopbackOrigin: `https://127.0.0.1:${port}`,
    port,
    spki,
    certificate: cert.toString(),
    requests,
    async close() {
      server.closeAllConnections()
      server.close()
      await once(server, 'close')
    },
  }
}
