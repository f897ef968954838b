import type { FastifyInstance } from 'fastify'
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
 * skew in the logs. Small, rate limited, no personal data: kind, page path and build id only.
 */
export async function clientErrorRoutes(app: FastifyInstance) {
  app.post(
    '/api/client-errors',
    { bodyLimit: 1024, config: { rateLimit: { max: 10, timeWindow: 60_000 } } },
    async (request, reply) => {
      const parsed = BeaconSchema.safeParse(request.body)
      if (!parsed.success) return reply.code(400).send({ error: 'Invalid report' })
      const { kind, path, buildId } = parsed.data
      request.log.warn(
        { kind, path: path.split(/[?#]/)[0], buildId, serverBuildId: app.renderer.build.id },
        'client error reported',
      )
      return reply.code(204).send()
    },
  )
}
