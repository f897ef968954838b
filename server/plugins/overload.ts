import underPressure, { type FastifyUnderPressureOptions } from '@fastify/under-pressure'
import type { FastifyReply, FastifyRequest, RouteShorthandOptions } from 'fastify'
import fp from 'fastify-plugin'
import { Counter } from 'prom-client'
import { LOCALES, localeFromPath, type Locale } from '#shared/locales.ts'
import { fallbackErrorHtml } from '../render/fallback.ts'

/**
 * under-pressure's handler: an answer other than undefined is what it sends, and the route is
 * never called (its README); undefined lets the request through. Its types say `void` only.
 */
type PressureHandler = (
  request: FastifyRequest,
  reply: FastifyReply,
  reason: string,
  value: number | undefined,
) => unknown

declare module 'fastify' {
  interface FastifyContextConfig {
    /** A route's own under-pressure handler (under-pressure reads it from the route config). */
    pressureHandler?: PressureHandler
  }
}

/** Seconds a refused client is asked to wait (`Retry-After`). */
export const RETRY_AFTER_SECONDS = 10

/** At most one warning per this many milliseconds while requests are refused. */
const WARN_EVERY_MS = 10_000

/**
 * The language of the unavailable page, or null where JSON is the answer: a page path's own
 * language; for `/api/` a browser's navigation (the no-JavaScript contact form) gets the page
 * in the language of the page it came from.
 */
function documentLocale(request: FastifyRequest, path: string): Locale | null {
  if (!path.startsWith('/api/')) return localeFromPath(path)
  if (request.headers['sec-fetch-dest'] !== 'document') return null
  return localeFromPath(URL.parse(request.headers.referer ?? '')?.pathname ?? '/')
}

export type OverloadOptions = {
  /**
   * The mean event-loop delay (ms) over one sample above which every request is refused with
   * 503; 0 turns the guard off.
   */
  maxEventLoopDelayMs: number
}

/**
 * Route options of a route that must answer even while the process is overloaded: the
 * liveness probe (a busy process is alive; restarting it would lose its work), the readiness
 * probe (it says "overloaded" itself) and the metrics (overload is when they matter most).
 */
export const ANSWERS_UNDER_PRESSURE = {
  config: { pressureHandler: () => undefined },
} satisfies RouteShorthandOptions

/**
 * An overloaded replica says so: `503 Service Unavailable` with `Retry-After` on every path,
 * so an ingress, a load balancer or a crawler retries later or elsewhere, where a 500 would
 * say "broken". Pages get a small localized HTML document made at start (nothing is rendered
 * while overloaded), `/api/` paths JSON. Each refusal is counted; a warning with the measured
 * delay is logged at most every 10 s. The readiness probe fails meanwhile
 * (`server/routes/health.ts`), so Kubernetes takes the replica out of the Service until the
 * delay is back under the limit (docs/decisions/overload-is-503-never-500.md).
 */
export const overloadPlugin = fp<OverloadOptions>(
  async (app, { maxEventLoopDelayMs }) => {
    const refusals = new Counter({
      name: 'http_overload_refusals_total',
      help: 'Requests answered 503 because the process was overloaded, by the measure over its limit',
      labelNames: ['reason'] as const,
      registers: [app.metrics],
    })
    // The one measure configured here, at 0 from the start (a panel shows 0, not "no data").
    refusals.inc({ reason: underPressure.TYPE_EVENT_LOOP_DELAY }, 0)
    let pages: Record<Locale, Buffer> | null = null
    app.addHook('onReady', async () => {
      const styles = app.hasDecorator('renderer') ? app.renderer.assets([]).styles : []
      pages = Object.fromEntries(
        LOCALES.map((locale) => [
          locale,
          Buffer.from(fallbackErrorHtml({ i18n: app.i18n, locale, status: 503, styles })),
        ]),
      ) as Record<Locale, Buffer>
    })

    let refusedSinceWarning = 0
    let lastWarning = 0
    function warn(request: FastifyRequest, reason: string, value: number | undefined) {
      refusedSinceWarning++
      const now = Date.now()
      if (now - lastWarning < WARN_EVERY_MS) return
      request.log.warn(
        {
          reason,
          // Event-loop delay in ms, heap or RSS in bytes: the measure that is over its limit.
          measured: value === undefined ? undefined : Math.round(value),
          limit: reason === 'eventLoopDelay' ? maxEventLoopDelayMs : undefined,
          refused: refusedSinceWarning,
        },
        'overloaded: refusing requests with 503',
      )
      refusedSinceWarning = 0
      lastWarning = now
    }

    function refuse(
      request: FastifyRequest,
      reply: FastifyReply,
      reason: string,
      value: number | undefined,
    ) {
      refusals.inc({ reason })
      warn(request, reason, value)
      reply
        .code(503)
        .header('Retry-After', String(RETRY_AFTER_SECONDS))
        .header('Cache-Control', 'no-store')
      const path = request.url.split('?')[0] ?? '/'
      const locale = documentLocale(request, path)
      if (!pages || !locale) {
        reply.type('application/json; charset=utf-8')
        return {
          status: 'error',
          error: 'Service Unavailable',
          retryAfterSeconds: RETRY_AFTER_SECONDS,
        }
      }
      reply.type('text/html; charset=utf-8')
      return pages[locale]
    }

    // A handler's answer other than undefined is what under-pressure sends (its README); it
    // never calls the route then. The exempt routes' handler answers undefined.
    await app.register(underPressure, {
      maxEventLoopDelay: maxEventLoopDelayMs,
      retryAfter: RETRY_AFTER_SECONDS,
      exposeStatusRoute: false,
      pressureHandler: refuse as PressureHandler as FastifyUnderPressureOptions['pressureHandler'],
    })
  },
  { name: 'overload', dependencies: ['i18n', 'observability'] },
)
