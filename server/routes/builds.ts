import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'

/** Where the build manifests live: under the assets directory, like the hashed files. */
export const BUILD_ASSETS_DIR = '/assets/'

/**
 * Build manifests for new-build detection (docs/operations.md#deployments-and-version-skew):
 * `latest.json` is never cached; a build's own `meta/{id}.json` is immutable and answers 404 once
 * this server runs another build, which is how an open page learns that it is outdated. The
 * previous release, whose files this image carries, still has its meta: its pages learn of the new
 * build from `latest.json` instead of from a 404 the browser would log as an error.
 */
const BuildSchema = z.object({ id: z.string(), timestamp: z.number() })

export const buildRoutes: FastifyPluginAsyncZod = async (app) => {
  const { id, timestamp } = app.renderer.build
  const previous = app.renderer.previousBuild
  app.get(
    `${BUILD_ASSETS_DIR}builds/latest.json`,
    { schema: { response: { 200: BuildSchema } } },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-cache')
      return { id, timestamp }
    },
  )
  app.get(
    `${BUILD_ASSETS_DIR}builds/meta/:file`,
    {
      schema: {
        params: z.object({ file: z.string().max(100) }),
        response: {
          200: BuildSchema.extend({ prerendered: z.array(z.string()) }),
          404: z.object({ error: z.string() }),
        },
      },
    },
    async (request, reply) => {
      const known = [app.renderer.build, ...(previous ? [previous] : [])].find(
        (build) => request.params.file === `${build.id}.json`,
      )
      if (!known) {
        return reply.code(404).header('Cache-Control', 'no-cache').send({ error: 'Unknown build' })
      }
      reply.header('Cache-Control', 'public, max-age=31536000, immutable')
      return { id: known.id, timestamp: known.timestamp, prerendered: [] }
    },
  )
}
