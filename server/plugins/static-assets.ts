import { join } from 'node:path'
import fastifyStatic from '@fastify/static'
import fp from 'fastify-plugin'

export type StaticAssetsOptions = { clientDir: string }

const IMMUTABLE = 'public, max-age=31536000, immutable'
const REVALIDATE = 'public, max-age=3600, must-revalidate'

/**
 * Files of the client build: hashed files under `/assets/` are immutable; the few unhashed
 * public files (favicon, manifest, robots.txt) are cached briefly. Only files that exist at
 * start are routed (`wildcard: false`), so no path can reach outside the build.
 */
export const staticAssetsPlugin = fp<StaticAssetsOptions>(
  async (app, { clientDir }) => {
    await app.register(fastifyStatic, {
      root: join(clientDir),
      wildcard: false,
      index: false,
      serveDotFiles: false,
      cacheControl: false,
      // The build's .br and .gz twins, chosen by Accept-Encoding (with Vary).
      preCompressed: true,
      setHeaders(reply, path) {
        reply.header('Cache-Control', path.includes('/assets/') ? IMMUTABLE : REVALIDATE)
      },
    })
  },
  { name: 'static-assets' },
)
