import type { FastifyInstance } from 'fastify'

/** Where the build manifests live: under the assets directory, like the hashed files. */
export const BUILD_ASSETS_DIR = '/assets/'

/**
 * Build manifests for new-build detection (DESIGN.md 7): `latest.json` is never cached; a
 * build's own `meta/{id}.json` is immutable and answers 404 once this server runs another
 * build, which is how an open page learns that it is outdated.
 */
export async function buildRoutes(app: FastifyInstance) {
  const { id, timestamp } = app.renderer.build
  app.get(`${BUILD_ASSETS_DIR}builds/latest.json`, async (_request, reply) => {
    reply.header('Cache-Control', 'no-cache')
    return { id, timestamp }
  })
  app.get<{ Params: { file: string } }>(
    `${BUILD_ASSETS_DIR}builds/meta/:file`,
    async (request, reply) => {
      if (request.params.file !== `${id}.json`) {
        reply.code(404).header('Cache-Control', 'no-cache')
        return { error: 'Unknown build' }
      }
      reply.header('Cache-Control', 'public, max-age=31536000, immutable')
      return { id, timestamp, prerendered: [] }
    },
  )
}
