import fastifyPlugin from 'fastify-plugin'
import { isSubresourceOnly } from '#shared/subresources.ts'
import { REPORTING_ENDPOINTS } from './security-headers.ts'

/** Features the site never uses, switched off for it and anything it might embed. */
const PERMISSIONS_POLICY =
  'accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=(), interest-cohort=()'

export type ResponseHeadersOptions = {
  /** The build that serves the process (known once the renderer is registered). */
  buildId: () => string
}

/**
 * The headers helmet does not write, on every response, in one hook: `Permissions-Policy`,
 * `Reporting-Endpoints` (where the CSP's violation reports go; neither on the build's scripts,
 * stylesheets and fonts, shared/subresources.ts),
 * `X-Build-Id` (open pages compare it with their own and reload on a new build) and
 * `X-Request-Id` (the id of the request's log line).
 */
export const responseHeadersPlugin = fastifyPlugin<ResponseHeadersOptions>(
  (app, { buildId }, done) => {
    app.addHook('onRequest', (request, reply, next) => {
      // Both govern documents (and workers) only: a script, stylesheet or font goes without.
      if (!isSubresourceOnly(request.routeOptions.url ?? '')) {
        reply.header('permissions-policy', PERMISSIONS_POLICY)
        reply.header('reporting-endpoints', REPORTING_ENDPOINTS)
      }
      reply.header('x-build-id', buildId())
      reply.header('x-request-id', request.id)
      next()
    })
    done()
  },
  { name: 'response-headers', fastify: '5.x' },
)
