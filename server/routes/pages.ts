import type { FastifyInstance } from 'fastify'
import { servePage } from '../render/serve-page.ts'

/** Catch-all: every GET that no other route claims is a page (or the localized 404 page). */
export async function pageRoutes(app: FastifyInstance) {
  app.get('/*', (request, reply) =>
    request.url.startsWith('/api/') ? reply.callNotFound() : servePage(app, request, reply),
  )
}
