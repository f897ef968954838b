import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import { z } from 'zod'

const Status = <S extends string>(status: S) => z.object({ status: z.literal(status) })

/**
 * Probes for Kubernetes: liveness has no dependencies; readiness turns false on shutdown and
 * when the contact outbox cannot be written.
 */
export const healthRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/healthz', { schema: { response: { 200: Status('ok') } } }, async (_request, reply) => {
    reply.header('Cache-Control', 'no-store')
    return { status: 'ok' as const }
  })
  app.get(
    '/readyz',
    {
      schema: {
        response: {
          200: Status('ready'),
          503: z.object({ status: z.enum(['shutting-down', 'outbox-not-writable']) }),
        },
      },
    },
    async (_request, reply) => {
      reply.header('Cache-Control', 'no-store')
      if (app.isShuttingDown) return reply.code(503).send({ status: 'shutting-down' })
      // A replica that cannot store contact messages must not get visitors.
      if (!(await app.contact.isReady())) {
        return reply.code(503).send({ status: 'outbox-not-writable' })
      }
      return { status: 'ready' as const }
    },
  )
}
