import type { FastifyInstance } from 'fastify'

/** `/metrics`: Prometheus text of the app's registry (contact outcomes, outbox depth, …). */
export async function metricsRoutes(app: FastifyInstance) {
  app.get('/metrics', async (_request, reply) => {
    reply.type(app.metrics.contentType).header('Cache-Control', 'no-store')
    return app.metrics.metrics()
  })
}
