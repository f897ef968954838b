import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ContactFormState, FormToken } from '#shared/contact-fields.ts'
import { LOCALE_COOKIE, localeFromPath } from '#shared/locales.ts'
import { compressForClient } from './content-encoding.ts'
import { fallbackErrorHtml } from './fallback.ts'
import { routePageRequest, type PageRouting } from './locale-routing.ts'
import {
  answerFromCache,
  hookHeaders,
  planCaching,
  sendKept,
  sendNotFound,
  type CachePlan,
  type HookHeaders,
  type PagePath,
} from './page-cache.ts'
import { renderAndStore } from './render-page.ts'

/**
 * The page pipeline, top to bottom. Every page answer of the site goes through one of these:
 * a GET of a page (or of an unknown path), a plain form post answered with its page, and the
 * static error page for when React itself cannot render.
 */

/**
 * The request's URL on our own origin (never the Host header). Concatenated, not resolved:
 * `new URL('//evil.example', base)` would be another host, while here it stays a path.
 */
function siteUrl(app: FastifyInstance, path: string): URL {
  return new URL(`${app.config.APP_BASE_URL}${path.startsWith('/') ? path : '/'}`)
}

/** Paths a URL parser leaves as they are: no query, escapes, dot segments or empty segments. */
const PLAIN_PATH = /^(?:\/[\w~-][\w.~-]*)*\/?$/

/**
 * The request's path and query. A plain path is taken as it is, so a page answered from memory
 * costs no URL parsing; anything else is parsed like the URL it is.
 */
function requestPath(app: FastifyInstance, rawUrl: string): PagePath {
  return PLAIN_PATH.test(rawUrl) ? { pathname: rawUrl, search: '' } : siteUrl(app, rawUrl)
}

/**
 * The page routing and cache plan of a GET, as both the early replay and the route see it. A
 * redirect has no plan. `reply`: the response whose request hooks' headers a page rendered now
 * keeps; null when the cache is only looked up.
 */
function planPageRequest(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply | null,
): { routing: PageRouting & { kind: 'redirect' } } | { routing: PageRouting; plan: CachePlan } {
  const url = requestPath(app, request.url)
  const routing = routePageRequest(
    url,
    request.headers['accept-language'],
    // Parsed here, only when `/` negotiates: @fastify/cookie runs no hook (app.ts).
    () => app.parseCookie(request.headers.cookie ?? '')[LOCALE_COOKIE],
  )
  if (routing.kind === 'redirect') return { routing }
  const plan = planCaching(url, {
    isProduction: app.config.NODE_ENV !== 'development',
    buildId: app.renderer.build.id,
    vary: routing.headers.Vary ? `${routing.headers.Vary}, Accept-Encoding` : 'Accept-Encoding',
    hookHeaders: reply ? () => hookHeaders(reply) : null,
  })
  return { routing, plan }
}

/** A GET of a page: route the URL, answer from the cache, or render (and keep) the page. */
export async function servePage(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  // What Helmet and the site's own hooks wrote is read before the page adds its headers: kept
  // with the page if it is kept, and sent with each answer from memory (`replayKeptPage`).
  const planned = planPageRequest(app, request, reply)
  reply.headers(planned.routing.headers)
  if (!('plan' in planned)) {
    return reply.redirect(planned.routing.location, planned.routing.status)
  }
  const { plan } = planned
  if (answerFromCache(app.pageCache, plan, request, reply)) return reply

  // A page is rendered for the query it reads: what is kept is what any URL of its key shows.
  const url = siteUrl(app, plan.kind === 'page' ? plan.key : request.url)
  return renderAndStore(app, request, reply, { url, plan })
}

/**
 * The first request hook of production (app.ts): a GET of a page kept in memory, or of an
 * unknown path whose locale's 404 page is kept as a template, is answered here, before the
 * other request hooks, with the headers those hooks wrote when the page was kept (Helmet's
 * through @fastify/helmet, the site's own) and this request's id. Helmet's headers depend on
 * its options alone, which are fixed for the life of the process, so they are the same bytes
 * as if Helmet ran again (tests/server/render/page-replay.test.ts). The answer still passes
 * the route's and the app's response hooks (the view is counted, the request logged and
 * measured), and conditionals and encodings are answered as on the route. Everything else (a
 * miss, a redirect, an overloaded process) goes on as before.
 */
export function replayKeptPage(app: FastifyInstance) {
  return function replayKeptPageHook(
    request: FastifyRequest,
    reply: FastifyReply,
    next: () => void,
  ): void {
    if (request.method !== 'GET' || app.isUnderPressure()) return next()
    // One lookup of the path leaves every other request alone; a query is read only then. An
    // unknown path reaches the page route (`/*`) with no kept page of its own.
    const queryAt = request.url.indexOf('?')
    const mayBeKept =
      app.pageCache.has(queryAt === -1 ? request.url : request.url.slice(0, queryAt)) ||
      (app.pageCache.hasNotFound &&
        request.routeOptions.url === PAGE_ROUTE &&
        !request.url.startsWith('/api/') &&
        PLAIN_PATH.test(request.url))
    if (!mayBeKept) return next()
    const planned = planPageRequest(app, request, null)
    if (!('plan' in planned)) return next()
    const { plan, routing } = planned
    if (plan.kind === 'page') {
      const cached = app.pageCache.get(plan.key, plan.edition)
      if (!cached) return next()
      replayHeaders(request, reply, cached.hookHeaders, routing)
      sendKept(cached, request, reply)
    } else if (plan.kind === 'not-found') {
      const template = app.pageCache.notFound(plan.locale, plan.year)
      if (!template) return next()
      replayHeaders(request, reply, template.hookHeaders, routing)
      sendNotFound(template, plan.path, request, reply)
    } else {
      next()
    }
  }
}

/** The path of the page route (routes/pages.ts): every GET no other route claims. */
export const PAGE_ROUTE = '/*'

function replayHeaders(
  request: FastifyRequest,
  reply: FastifyReply,
  kept: HookHeaders,
  routing: PageRouting,
): void {
  reply.headers(kept)
  reply.header('x-request-id', request.id)
  reply.headers(routing.headers)
}

/** A plain (no-JavaScript) form post answered with its page: rendered each time, never kept. */
export async function serveFormPage(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  answer: { path: string; status: number; formState: ContactFormState; formToken: FormToken },
) {
  const url = siteUrl(app, answer.path)
  return renderAndStore(app, request, reply, { url, plan: { kind: 'none' }, ...answer })
}

/** The error page when even React could not render: static, localized, no internals. */
export function serveErrorPage(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  status: 404 | 500,
) {
  const path = siteUrl(app, request.url).pathname
  const locale = localeFromPath(path)
  const styles = app.hasDecorator('renderer') ? app.renderer.assets([]).styles : []
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .send(
      compressForClient(
        reply,
        request.headers['accept-encoding'],
        Buffer.from(
          fallbackErrorHtml({
            i18n: app.i18n,
            locale,
            styles,
            ...(status === 404 ? { status, path } : { status }),
          }),
        ),
      ),
    )
}
