import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'

const BeaconSchema = z.strictObject({
  kind: z.enum(['chunk-load', 'startup']),
  /** A page path; query and fragment are dropped before anything is logged. */
  path: z.string().max(300),
  buildId: z
    .string()
    .max(40)
    .regex(/^[\w-]*$/),
})

/**
 * `POST /api/client-errors`: the browser reports a failed chunk or start-up so ops see version
 * skew in the logs. Small, rate limited, no personal data: kind, page path and build id only
 * (anything else in the body is refused with 400 by the schema).
 */
export const clientErrorRoutes: FastifyPluginAsyncZod = async (app) => {
  app.post(
    '/api/client-errors',
    {
      bodyLimit: 1024,
      config: { rateLimit: { max: 10, timeWindow: 60_000 } },
      schema: { body: BeaconSchema },
    },
    async (request, reply) => {
      const { kind, path, buildId } = request.body
      request.log.warn(
        { kind, path: path.split(/[?#]/)[0], buildId, serverBuildId: app.renderer.build.id },
        'client error reported',
      )
      return reply.code(204).send()
    },
  )
}
