import { randomUUID } from 'node:crypto'
import { createServer } from 'node:http'
import type { FastifyRequest, RawRequestDefaultExpression } from 'fastify'
import fp from 'fastify-plugin'
import { collectDefaultMetrics, Counter, Gauge, Histogram } from 'prom-client'
import { addressMatcher, shortenIp } from '../lib/ip-addresses.ts'
import { ANSWERS_UNDER_PRESSURE } from './overload.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Counts a failed page render (the visitor got the 500 page). */
    countRenderError: () => void
    /** `/metrics` on a port of its own, or null when the site's port serves it. */
    metricsListener: MetricsListener | null
  }
}

/**
 * The listener of `/metrics` on its own port. The process opens it (`server/main.ts`), not an
 * `onListen` hook: Fastify only logs what fails there, and a process whose metrics port is
 * taken would serve on, unseen by its alerts.
 */
type MetricsListener = {
  port: number
  /** Listens on `port`; rejects with Node's error (`EADDRINUSE`, …) if it cannot. */
  listen: () => Promise<void>
}

/** An incoming `X-Request-Id` is kept only if it looks like an id, never arbitrary text. */
const REQUEST_ID = /^[\w.:-]{1,64}$/

/** The request id: the ingress's (if valid), else a new UUID. Used as `genReqId`. */
export function requestId(request: RawRequestDefaultExpression): string {
  const incoming = request.headers['x-request-id']
  return typeof incoming === 'string' && REQUEST_ID.test(incoming) ? incoming : randomUUID()
}

function routeOf(request: FastifyRequest): string {
  return request.routeOptions.url ?? 'unmatched'
}

export type ObservabilityOptions = {
  /**
   * IPs or CIDRs allowed to read `/metrics` (`parseAllowList`), checked against the client
   * address: `request.ip` on the site's port (behind `TRUST_PROXY`, the forwarded one), the
   * connection's on a port of its own (proxies forward the site's port, not that one).
   */
  metricsAllow: readonly string[]
  /**
   * A port of its own for `/metrics` (`app.metricsListener`): what routes the site's port to
   * the public (an Ingress, a load balancer) then never reaches the metrics. Unset: on the
   * site's port.
   */
  metricsPort?: number
  host?: string
}

/**
 * Access log (one JSON line per request: id, method, route pattern, status, duration,
 * shortened client IP; never cookies, bodies or query strings; the id is echoed as
 * `X-Request-Id` by the response-headers plugin), and the
 * Prometheus metrics of requests, renders and the build.
 */
export const observabilityPlugin = fp<ObservabilityOptions>(
  async (app, { metricsAllow, metricsPort, host }) => {
    const registry = app.metrics
    collectDefaultMetrics({ register: registry })
    const durations = new Histogram({
      name: 'http_request_duration_seconds',
      help: 'Request duration by route pattern, method and status',
      labelNames: ['route', 'method', 'status_code'] as const,
      buckets: [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    })
    const renderErrors = new Counter({
      name: 'render_errors_total',
      help: 'Page renders that failed and answered with the error page',
      registers: [registry],
    })
    new Gauge({
      name: 'app_build_info',
      help: 'The running build (always 1), by build id',
      labelNames: ['build_id'] as const,
      registers: [registry],
    }).set({ build_id: app.renderer.build.id }, 1)

    app.decorate('countRenderError', () => renderErrors.inc())

    // One histogram child per route, method and status, looked up by a string key: prom-client
    // would otherwise hash the label object on every request.
    const series = new Map<string, ReturnType<typeof durations.labels>>()
    app.addHook('onResponse', (request, reply, done) => {
      const route = routeOf(request)
      const key = `${route} ${request.method} ${reply.statusCode}`
      let child = series.get(key)
      if (!child) {
        child = durations.labels({
          route,
          method: request.method,
          status_code: String(reply.statusCode),
        })
        series.set(key, child)
      }
      child.observe(reply.elapsedTime / 1000)
      request.log.info(
        {
          method: request.method,
          route,
          path: request.url.split('?')[0]?.slice(0, 300),
          statusCode: reply.statusCode,
          durationMs: Math.round(reply.elapsedTime * 10) / 10,
          clientIp: shortenIp(request.ip),
        },
        'request completed',
      )
      done()
    })

    const isAllowed = addressMatcher(metricsAllow)
    if (metricsPort === undefined) {
      app.decorate('metricsListener', null)
      app.get('/metrics', ANSWERS_UNDER_PRESSURE, async (request, reply) => {
        if (!isAllowed(request.ip)) return reply.callNotFound()
        reply.type(registry.contentType).header('Cache-Control', 'no-store')
        return registry.metrics()
      })
      return
    }
    const server = createServer((request, response) => {
      const path = request.url?.split('?')[0]
      if (
        request.method !== 'GET' ||
        path !== '/metrics' ||
        !isAllowed(request.socket.remoteAddress ?? '')
      ) {
        response.writeHead(404, { 'content-type': 'text/plain' }).end('Not Found\n')
        return
      }
      registry.metrics().then(
        (text) => {
          response.writeHead(200, {
            'content-type': registry.contentType,
            'cache-control': 'no-store',
          })
          response.end(text)
        },
        (error: unknown) => {
          app.log.error({ err: error }, 'metrics could not be collected')
          response.writeHead(500, { 'content-type': 'text/plain' }).end('Internal Server Error\n')
        },
      )
    })
    app.decorate('metricsListener', {
      port: metricsPort,
      listen: async () => {
        await new Promise<void>((resolve, reject) => {
          server.once('error', reject)
          server.listen(metricsPort, host, () => {
            server.off('error', reject)
            resolve()
          })
        })
        app.log.info({ port: metricsPort }, 'metrics listening on their own port')
      },
    })
    app.addHook('onClose', async () => {
      if (server.listening) await new Promise((resolve) => server.close(resolve))
    })
  },
  { name: 'observability' },
)
