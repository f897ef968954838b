import type { FastifyInstance } from 'fastify'

/** Where the build manifests live: under the assets directory, like the hashed files. */
export const BUILD_ASSETS_DIR = '/assets/'

/**
 * Build manifests for new-build detection (README, Deployments and version skew): `latest.json` is never cached; a
 * build's own `meta/{id}.json` is immutable and answers 404 once this server runs another
 * build, which is how an open page learns that it is outdated. The previous release, whose
 * files this image carries, still has its meta: its pages learn of the new build from
 * `latest.json` instead of from a 404 the browser would log as an error.
 */
export async function buildRoutes(app: FastifyInstance) {
  const { id, timestamp } = app.renderer.build
  const previous = app.renderer.previousBuild
  app.get(`${BUILD_ASSETS_DIR}builds/latest.json`, async (_request, reply) => {
    reply.header('Cache-Control', 'no-cache')
    return { id, timestamp }
  })
  app.get<{ Params: { file: string } }>(
    `${BUILD_ASSETS_DIR}builds/meta/:file`,
    async (request, reply) => {
      const known = [app.renderer.build, ...(previous ? [previous] : [])].find(
        (build) => request.params.file === `${build.id}.json`,
      )
      if (!known) {
        reply.code(404).header('Cache-Control', 'no-cache')
        return { error: 'Unknown build' }
      }
      reply.header('Cache-Control', 'public, max-age=31536000, immutable')
      return { id: known.id, timestamp: known.timestamp, prerendered: [] }
    },
  )
}
