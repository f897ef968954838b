import type { FastifyInstance } from 'fastify'
import { PAGE_ROUTE, servePage } from '../render/serve-page.ts'

/**
 * Catch-all: every GET that no other route claims is a page (or the localized 404 page).
 * Without the compression plugin's hooks: pages kept in memory come precompressed, and what
 * is rendered is compressed where it is made (`compressForClient`). A person's view of a page
 * is counted once it is answered (docs/insight.md#insight-which-pages-bring-leads).
 */
export async function pageRoutes(app: FastifyInstance) {
  app.get(
    PAGE_ROUTE,
    {
      compress: false,
      decompress: false,
      onResponse: (request, reply, done) => {
        app.insight.countView(request, reply)
        done()
      },
    },
    (request, reply) =>
      request.url.startsWith('/api/') ? reply.callNotFound() : servePage(app, request, reply),
  )
}
