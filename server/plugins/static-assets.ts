import fastifyStatic from '@fastify/static'
import fp from 'fastify-plugin'

export type StaticAssetsOptions = { clientDir: string }

/** Files under /assets/ carry a content hash in their name: a new build means a new URL. */
const IMMUTABLE = 'public, max-age=31536000, immutable'
/** The few unhashed public files (favicon, manifest, icons) keep their URL across builds. */
const REVALIDATE = 'public, max-age=3600, must-revalidate'

/**
 * The client build by @fastify/static (docs/decisions/the-stack-the-design-names.md): the hashed
 * files under `/assets/` (this build's and the previous release's, which the image carries) and
 * the public files at the root. Each asset is a `stat` and a file stream, not a buffer from
 * memory: a lower asset throughput, accepted for the plugin
 * (docs/decisions/asset-throughput-traded-for-the-plugin.md).
 *
 * - `wildcard: false` (docs/decisions/fastifystatic-with-wildcard-false.md): the files are listed
 *   once at start and each gets its own route, so no other path reaches the disk, and a page
 *   path never meets a file lookup. The precompressed twins get no route of their own;
 *   `preCompressed` picks them by Accept-Encoding.
 * - Dotfiles (the `.vite/` manifest) are neither listed nor served; no index, no listing.
 * - ETag and Last-Modified by @fastify/send, which answers revalidations with 304.
 * - The hashed files are public to every origin (`Access-Control-Allow-Origin: *`): a CDN
 *   (`CDN_URL`) serves them to the site's pages.
 * - A missing file under /assets/ is a plain 404 (below), not the page route's 404 page.
 * - Registered before @fastify/compress: the compression plugin's onRoute hook then never sees
 *   these routes, so nothing here is compressed again (app.ts keeps that order).
 */
export const staticAssetsPlugin = fp<StaticAssetsOptions>(
  async (app, { clientDir }) => {
    await app.register(fastifyStatic, {
      root: clientDir,
      prefix: '/',
      wildcard: false,
      globIgnore: ['**/*.br', '**/*.gz'],
      serveDotFiles: false,
      dotfiles: 'ignore',
      index: false,
      list: false,
      redirect: false,
      preCompressed: true,
      acceptRanges: false,
      cacheControl: false,
      setHeaders(reply, path) {
        const isHashed = /^[\\/]assets[\\/]/.test(path.slice(clientDir.length))
        reply.header('cache-control', isHashed ? IMMUTABLE : REVALIDATE)
        // A CDN that pulls these files passes this on, so pages may load them from there in
        // CORS mode, as module scripts and integrity checks need
        // (docs/security.md#security-the-policy-enforced-and-reported).
        if (isHashed) reply.header('access-control-allow-origin', '*')
        // Spelled as the pages spell it; `preCompressed` adds it in lower case otherwise.
        reply.header('vary', 'Accept-Encoding')
      },
    })
    // A script, stylesheet or image that is not (or no longer) there: a plain 404 without a
    // page around it, since no person reads it. Each file's own route is more specific; this
    // one keeps the page route's `/*` from rendering the 404 page for the asset space.
    app.route({
      method: ['GET', 'HEAD'],
      url: '/assets/*',
      handler: (_request, reply) =>
        reply
          .code(404)
          .type('text/plain; charset=utf-8')
          .header('cache-control', 'no-cache')
          .send('Not Found'),
    })
  },
  { name: 'static-assets' },
)
