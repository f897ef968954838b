import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { createHash } from 'node:crypto'
import { isbot } from 'isbot'
import type { ContactFormState } from '#shared/contact-form.ts'
import { LOCALE_COOKIE, localeFromPath } from '#shared/locales.ts'
import { localizedPaths } from '#shared/routes.ts'
import { fallbackErrorHtml } from '../render/fallback.ts'
import { pickEncoding } from '../render/content-encoding.ts'
import { fillNotFound, TEMPLATE_SAFE_PATH } from '../render/page-cache.ts'
import { routePageRequest } from '../render/locale-routing.ts'

/**
 * The request's URL on our own origin (never the Host header). Concatenated, not resolved:
 * `new URL('//evil.example', base)` would be another host, while here it stays a path.
 */
export function siteUrl(app: FastifyInstance, request: FastifyRequest): URL {
  const target = request.url.startsWith('/') ? request.url : '/'
  return new URL(`${app.config.APP_BASE_URL}${target}`)
}

/** Fetch `Request` for the router, aborted when the visitor goes away. */
function toFetchRequest(url: URL, request: FastifyRequest, reply: FastifyReply) {
  const controller = new AbortController()
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort()
  })
  const headers = new Headers()
  for (const [name, value] of Object.entries(request.headers)) {
    if (Array.isArray(value)) for (const item of value) headers.append(name, item)
    else if (value !== undefined) headers.set(name, value)
  }
  return new Request(url, { method: 'GET', headers, signal: controller.signal })
}

export type RenderPageOptions = {
  /** Render this page instead of the request's path (a plain form post shown again). */
  path?: string
  /** Status to answer with instead of the router's. */
  status?: number
  formState?: ContactFormState
}

const PAGE_PATHS = new Set(localizedPaths().map(({ path }) => path))

/** Whether a path's page is one of the route table's, kept and validated in production. */
function isCacheablePage(app: FastifyInstance, url: URL): boolean {
  return app.config.NODE_ENV !== 'development' && PAGE_PATHS.has(url.pathname)
}

/** Strong ETag of a page of the route table: same build, path, query and year, same bytes. */
function pageEtag(app: FastifyInstance, url: URL, year: number): string {
  const input = `${app.renderer.build.id}\n${url.pathname}${url.search}\n${year}`
  return `"${createHash('sha256').update(input).digest('base64url').slice(0, 27)}"`
}

/** Render the page for a request's path; the reply streams React's output. */
export async function renderPage(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  options: RenderPageOptions = {},
) {
  const url = options.path
    ? new URL(`${app.config.APP_BASE_URL}${options.path}`)
    : siteUrl(app, request)
  let vary = 'Accept-Encoding'
  if (!options.path) {
    const routing = routePageRequest(
      url,
      request.headers['accept-language'],
      request.cookies[LOCALE_COOKIE],
    )
    reply.headers(routing.headers)
    if (routing.kind === 'redirect') return reply.redirect(routing.location, routing.status)
    if (routing.headers.Vary) vary = `${routing.headers.Vary}, ${vary}`
  }

  const isCacheable = !options.formState && isCacheablePage(app, url)
  const year = new Date().getFullYear()
  // A page of the route table without a query is rendered once and then served from memory.
  const cacheKey = isCacheable && url.search === '' ? url.pathname : null
  const cached = cacheKey ? app.pageCache.get(cacheKey, year) : undefined
  if (cached) {
    reply.headers(cached.headers)
    if (request.headers['if-none-match'] === cached.etag) return reply.code(304).send()
    const { encoding, body } = pickEncoding(cached, request.headers['accept-encoding'])
    if (encoding) reply.header('content-encoding', encoding)
    return reply.code(200).send(body)
  }

  // An unknown path of a plain request: the locale's 404 page with this path filled in.
  const notFoundKey =
    !options.path && !options.formState && app.config.NODE_ENV !== 'development' && !isCacheable
      ? TEMPLATE_SAFE_PATH.test(url.pathname) && localeFromPath(url.pathname)
      : null
  const notFound = notFoundKey ? app.pageCache.notFound(notFoundKey, year) : undefined
  if (notFound) {
    return reply
      .code(404)
      .type('text/html; charset=utf-8')
      .header('Cache-Control', 'no-cache')
      .send(fillNotFound(notFound, url.pathname))
  }

  // Pages are the same bytes for everyone for one build, path and year: a strong validator
  // that answers a revalidation without rendering at all.
  const etag = isCacheable ? pageEtag(app, url, year) : null
  if (etag) {
    reply.header('ETag', etag)
    if (request.headers['if-none-match'] === etag) {
      return reply.code(304).header('Cache-Control', 'no-cache').send()
    }
  }

  const fetchRequest = toFetchRequest(url, request, reply)
  const locale = localeFromPath(url.pathname)
  const result = await app.renderer.render({
    request: fetchRequest,
    locale,
    i18n: app.i18nFor(locale),
    assets: app.renderer.assets,
    baseUrl: app.config.APP_BASE_URL,
    waitForAll: isbot(request.headers['user-agent'] ?? ''),
    timeoutMs: app.config.RENDER_TIMEOUT_MS,
    onError: (error) => {
      app.countRenderError()
      request.log.error({ err: error }, 'render failed')
    },
    formState: options.formState,
    runtime: app.runtimeConfig,
  })
  if (result.kind === 'redirect') {
    return reply.redirect(result.location, result.status)
  }
  const status = options.status ?? result.status
  // Only a page rendered as itself keeps the validator (not a 404 or the error page).
  if (status !== 200) reply.removeHeader('ETag')
  reply.code(status)
  for (const [name, value] of result.headers) reply.header(name, value)
  reply.header('Cache-Control', 'no-cache')
  if ((cacheKey && etag && status === 200) || (notFoundKey && status === 404)) {
    // The visitor gets the stream; the cache keeps a copy once it completed without error.
    const chunks: Buffer[] = []
    result.body.on('data', (chunk: Buffer) => chunks.push(chunk))
    void result.isComplete.then((isComplete) => {
      if (!isComplete) return
      if (cacheKey && etag) app.pageCache.set(cacheKey, Buffer.concat(chunks), etag, year, vary)
      else if (notFoundKey) {
        app.pageCache.setNotFound(notFoundKey, year, Buffer.concat(chunks), url.pathname)
      }
    })
  }
  return reply.send(result.body)
}

/** The error page when even React could not render: static, localized, no internals. */
export function sendFallbackError(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  status: 404 | 500,
) {
  const path = siteUrl(app, request).pathname
  const locale = localeFromPath(path)
  const styles = app.hasDecorator('renderer') ? app.renderer.assets([]).styles : []
  return reply
    .code(status)
    .type('text/html; charset=utf-8')
    .header('Cache-Control', 'no-store')
    .send(fallbackErrorHtml({ i18n: app.i18n, locale, status, path, styles }))
}

/** Catch-all: every GET that no other route claims is a page (or the localized 404 page). */
export async function pageRoutes(app: FastifyInstance) {
  app.get('/*', (request, reply) =>
    request.url.startsWith('/api/') ? reply.callNotFound() : renderPage(app, request, reply),
  )
}
