import fastifyPlugin from 'fastify-plugin'
import { isSubresourceOnly } from '#shared/subresources.ts'
import { REPORTING_ENDPOINTS } from './security-headers.ts'

/** Features the site never uses, switched off for it and anything it might embed. */
const PERMISSIONS_POLICY =
  'accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=(), interest-cohort=()'

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A script, stylesheet or font of the build (shared/subresources.ts), marked per route. */
    subresourceOnly?: boolean
  }
}

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
    // Decided once per route, when it is declared (before @fastify/static declares the files).
    app.addHook('onRoute', (route) => {
      if (isSubresourceOnly(route.url)) route.config = { ...route.config, subresourceOnly: true }
    })
    app.addHook('onRequest', (request, reply, next) => {
      // Both govern documents (and workers) only: a script, stylesheet or font goes without.
      if (request.routeOptions.config.subresourceOnly !== true) {
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
