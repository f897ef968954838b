import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'
import { ANSWERS_UNDER_PRESSURE, RETRY_AFTER_SECONDS } from '../plugins/overload.ts'

const Status = <S extends string>(status: S) => z.object({ status: z.literal(status) })

/**
 * Probes for Kubernetes: liveness has no dependencies and answers even while the process is
 * overloaded; readiness turns false on shutdown, while the process is overloaded (the
 * Service then sends its traffic to the other replicas) and when the contact outbox cannot be
 * written.
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
            status: z.enum(['shutting-down', 'overloaded', 'outbox-not-writable']),
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
      // A replica that cannot store contact messages must not get visitors.
      if (!(await app.contact.isReady())) {
        return reply.code(503).send({ status: 'outbox-not-writable' })
      }
      return { status: 'ready' as const }
    },
  )
}
