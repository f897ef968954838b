import { once } from 'node:events'
import { createServer, request as httpRequest } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'
import { loadManifest } from '#server/render/assets.ts'

/** The path of a source's file in the client build (`/assets/…`), from Vite's manifest. */
export async function builtFile(source: string): Promise<string> {
  const manifest = await loadManifest(
    join(import.meta.dirname, '..', '..', 'dist', 'client', '.vite', 'manifest.json'),
  )
  const chunk = manifest[source]
  if (!chunk) throw new Error(`the build has no ${source}: run npm run build`)
  return `/${chunk.file}`
}

export type PullCdn = {
  /** `http://localhost:<port>`: another origin than the site's `127.0.0.1`. */
  origin: string
  /** Every path asked for, in order. */
  requests: string[]
  /** The site it pulls from (the site needs the CDN's origin first, for `CDN_URL`). */
  pullFrom(site: string): void
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
 * serves it with the site's own headers (tests/e2e/subresource-integrity.spec.ts,
 * tests/engines). On `port`, or any free one.
 */
export async function startPullCdn(port = 0): Promise<PullCdn> {
  let upstream: URL | undefined
  const requests: string[] = []
  const corrupted = new Set<string>()
  const server = createServer((request, response) => {
    const path = request.url ?? '/'
    requests.push(path)
    if (!upstream || !path.startsWith('/assets/') || request.method !== 'GET') {
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
    origin: `http://localhost:${(server.address() as AddressInfo).port}`,
    requests,
    pullFrom: (site) => void (upstream = new URL(site)),
    corrupt: (path) => void corrupted.add(path),
    restore: (path) => void corrupted.delete(path),
    async close() {
      server.closeAllConnections()
      server.close()
      await once(server, 'close')
    },
  }
}
