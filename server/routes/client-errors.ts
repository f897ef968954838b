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
 * Reports per client IP and window; the privacy policy states both (`PolicyFacts`), and the
 * address is forgotten when the window ends, as with the contact form.
 */
export const CLIENT_ERROR_RATE_LIMIT = { max: 10, windowMs: 60_000 } as const

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
      config: {
        rateLimit: {
          max: CLIENT_ERROR_RATE_LIMIT.max,
          timeWindow: CLIENT_ERROR_RATE_LIMIT.windowMs,
        },
      },
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
