import { createHash } from 'node:crypto'
import { readdir, readFile } from 'node:fs/promises'
import { extname, join, relative, sep } from 'node:path'
import type { FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { pickEncoding } from '../render/content-encoding.ts'

export type StaticAssetsOptions = { clientDir: string }

const IMMUTABLE = 'public, max-age=31536000, immutable'
const REVALIDATE = 'public, max-age=3600, must-revalidate'

const TYPES: Record<string, string> = {
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
  '.webmanifest': 'application/manifest+json',
  '.json': 'application/json',
  '.txt': 'text/plain; charset=utf-8',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
}

type Asset = {
  body: Buffer
  br: Buffer | undefined
  gzip: Buffer | undefined
  /** Content type, caching, validator and Vary: the same for every request. */
  headers: Record<string, string>
}

async function* walk(dir: string): AsyncGenerator<string> {
  for (const entry of await readdir(dir, { withFileTypes: true })) {
    if (entry.name.startsWith('.')) continue // .vite/manifest.json stays private
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* walk(path)
    else yield path
  }
}

async function optional(path: string): Promise<Buffer | undefined> {
  return readFile(path).catch(() => undefined)
}

/** Read the build's files once, with the .br and .gz twins the build made. */
export async function loadAssets(clientDir: string): Promise<Map<string, Asset>> {
  const assets = new Map<string, Asset>()
  for await (const path of walk(clientDir)) {
    if (path.endsWith('.br') || path.endsWith('.gz')) continue
    const url = `/${relative(clientDir, path).split(sep).join('/')}`
    const body = await readFile(path)
    const [br, gzip] = await Promise.all([optional(`${path}.br`), optional(`${path}.gz`)])
    const etag = `"${createHash('sha256').update(body).digest('base64url').slice(0, 27)}"`
    const headers: Record<string, string> = {
      'content-type': TYPES[extname(path)] ?? 'application/octet-stream',
      'cache-control': url.startsWith('/assets/') ? IMMUTABLE : REVALIDATE,
      etag,
    }
    if (br || gzip) headers.vary = 'Accept-Encoding'
    assets.set(url, { body, br, gzip, headers })
  }
  return assets
}

/**
 * The client build, served from memory: read once at start (under 2 MB with the precompressed
 * twins), so a request costs no file system call. Hashed files under `/assets/` are immutable;
 * the few unhashed public files (favicon, manifest) are cached briefly. Each file is its own
 * route, so no other path can reach the disk at all.
 */
export const staticAssetsPlugin = fp<StaticAssetsOptions>(
  async (app, { clientDir }) => {
    const assets = await loadAssets(clientDir)
    for (const [url, asset] of assets) {
      const handler = (request: FastifyRequest, reply: FastifyReply) => {
        reply.headers(asset.headers)
        if (request.headers['if-none-match'] === asset.headers.etag) {
          return reply.code(304).send()
        }
        const { encoding, body } = pickEncoding(asset, request.headers['accept-encoding'])
        if (encoding) reply.header('content-encoding', encoding)
        return reply.code(200).send(body)
      }
      // Precompressed here; the compression plugin must not touch these.
      app.get(url, { compress: false }, handler)
    }
  },
  { name: 'static-assets' },
)
