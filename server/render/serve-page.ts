import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import type { ContactFormState, FormToken } from '#shared/contact-fields.ts'
import { LOCALE_COOKIE, localeFromPath } from '#shared/locales.ts'
import { compressForClient } from './content-encoding.ts'
import { fallbackErrorHtml } from './fallback.ts'
import { routePageRequest } from './locale-routing.ts'
import { answerFromCache, planCaching, type PagePath } from './page-cache.ts'
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

/** A GET of a page: route the URL, answer from the cache, or render (and keep) the page. */
export async function servePage(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
) {
  const url = requestPath(app, request.url)

  const routing = routePageRequest(
    url,
    request.headers['accept-language'],
    // Parsed here, only when `/` negotiates: @fastify/cookie runs no hook (app.ts).
    () => app.parseCookie(request.headers.cookie ?? '')[LOCALE_COOKIE],
  )
  reply.headers(routing.headers)
  if (routing.kind === 'redirect') return reply.redirect(routing.location, routing.status)

  const plan = planCaching(url, {
    isProduction: app.config.NODE_ENV !== 'development',
    buildId: app.renderer.build.id,
    vary: routing.headers.Vary ? `${routing.headers.Vary}, Accept-Encoding` : 'Accept-Encoding',
  })
  if (answerFromCache(app.pageCache, plan, request, reply)) return reply

  return renderAndStore(app, request, reply, { url: siteUrl(app, request.url), plan })
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
