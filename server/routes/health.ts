import type { FastifyInstance } from 'fastify'

/** Probes for Kubernetes: liveness has no dependencies; readiness turns false on shutdown. */
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
    return { status: 'ready' }
  })
}
