import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { ANSWERS_UNDER_PRESSURE, RETRY_AFTER_SECONDS } from '../plugins/overload.ts'

const Status = <S extends string>(status: S) => z.object({ status: z.literal(status) })

/**
 * Probes for Kubernetes: liveness has no dependencies and answers even while the process is
 * overloaded; readiness turns false on shutdown and while the process is overloaded (the
 * Service then sends its traffic to the other replicas). Never on the contact store: pages
 * need none, and a store that cannot be written gets the form a 503 with Retry-After and the
 * metric `contact_store_writable` 0 (docs/decisions/readiness-serves-pages.md).
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get(
    '/healthz',
    { ...ANSWERS_UNDER_PRESSURE, schema: { response: { 200: Status('ok') } } },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store')
      return { status: 'ok' as const }
    },
  )
  app.get(
    '/readyz',
    {
      ...ANSWERS_UNDER_PRESSURE,
      schema: {
        response: {
          200: Status('ready'),
          503: z.object({
            status: z.enum(['shutting-down', 'overloaded']),
          }),
        },
      },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store')
      if (app.isShuttingDown) return reply.code(503).send({ status: 'shutting-down' })
      if (app.isUnderPressure()) {
        reply.header('Retry-After', String(RETRY_AFTER_SECONDS))
        return reply.code(503).send({ status: 'overloaded' })
      }
      return { status: 'ready' as const }
    },
  )
}
