import { once } from 'node:events'
import { createServer, request as httpRequest } from 'node:http'

export type PullCdn = {
  /** `http://localhost:<port>`: another origin than the site's `127.0.0.1`. */
  origin: string
  /** Every path asked for, in order. */
  requests: string[]
  /**
   * From now on, serves this script with a line added that would run if the browser let it
   * (it sets `globalThis.tamperedAtCdn`), as a compromised edge would.
   */
  corrupt(path: string): void
  /** Serves it as the site does again. */
  restore(path: string): void
  close(): Promise<void>
}

/**
 * A CDN as `CDN_URL` expects one: a second origin that pulls `/assets/` from the site and
 * serves it with the site's own headers (tests/e2e/subresource-integrity.spec.ts).
 */
export async function startPullCdn(port: number, site: string): Promise<PullCdn> {
  const upstream = new URL(site)
  const requests: string[] = []
  const corrupted = new Set<string>()
  const server = createServer((request, response) => {
    const path = request.url ?? '/'
    requests.push(path)
    if (!path.startsWith('/assets/') || request.method !== 'GET') {
      response.writeHead(404).end()
      return
    }
    const forwarded = httpRequest(
      { host: upstream.hostname, port: upstream.port, path },
      (answer) => {
        const chunks: Buffer[] = []
        answer.on('data', (chunk: Buffer) => chunks.push(chunk))
        answer.on('end', () => {
          const body = corrupted.has(path)
            ? Buffer.concat([...chunks, Buffer.from('\n;globalThis.tamperedAtCdn = true\n')])
            : Buffer.concat(chunks)
          response.writeHead(answer.statusCode ?? 502, {
            ...answer.headers,
            'content-length': body.length,
          })
          response.end(body)
        })
      },
    )
    forwarded.on('error', () => response.destroy())
    forwarded.end()
  })
  server.listen(port, '127.0.0.1')
  await once(server, 'listening')
  return {
    origin: `http://localhost:${port}`,
    requests,
    corrupt: (path) => void corrupted.add(path),
    restore: (path) => void corrupted.delete(path),
    async close() {
      server.closeAllConnections()
      server.close()
      await once(server, 'close')
    },
  }
}
