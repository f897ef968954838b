import type { FastifyInstance } from 'fastify'

/**
 * Probes for Kubernetes: liveness has no dependencies; readiness turns false on shutdown and
 * when the contact outbox cannot be written.
 */
export async function healthRoutes(app: FastifyInstance) {
  app.get('/healthz', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store')
    return { status: 'ok' }
  })
  app.get('/readyz', async (_request, reply) => {
    reply.header('Cache-Control', 'no-store')
    if (app.isShuttingDown) {
      reply.code(503)
      return { status: 'shutting-down' }
    }
    // A replica that cannot store contact messages must not get visitors.
    if (!(await app.contact.isReady())) {
      reply.code(503)
      return { status: 'outbox-not-writable' }
    }
    return { status: 'ready' }
  })
}
