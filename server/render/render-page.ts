import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { isbot } from 'isbot'
import { formAt, type ContactFormState, type FormToken } from '#shared/contact-fields.ts'
import { localeFromPath } from '#shared/locales.ts'
import { pageAt } from '#shared/pages.ts'
import type { Translate } from '#shared/page-texts.ts'
import { pageHead } from './page-head.ts'
import { compressForClient } from './content-encoding.ts'
import { keepRendered, type CachePlan } from './page-cache.ts'

/** Fetch `Request` for the router, aborted when the visitor goes away. */
function toFetchRequest(url: URL, request: FastifyRequest, reply: FastifyReply): Request {
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

/** The token of the form a page shows, made with the page (kept with it by the cache). */
function pageToken(app: FastifyInstance, pathname: string): FormToken | undefined {
  const form = formAt(pathname)
  if (!form) return undefined
  return { form, token: app.formTokens.issue('page', form, localeFromPath(pathname)) }
}

export type RenderStep = {
  /** The page's URL on our own origin. */
  url: URL
  plan: CachePlan
  /** Status to answer with instead of the router's (a form answer: 400, 429, 503). */
  status?: number
  /** A plain form post shown again with its errors, input or outcome. */
  formState?: ContactFormState
  /** That form's token (a page's own form gets one made for the page). */
  formToken?: FormToken
}

/**
 * Step 3 of a page request: React renders the page into the reply as a stream (people get
 * the shell at once, crawlers the whole document), and the cache keeps a copy when the plan
 * allows and the render finished without error.
 */
export async function renderAndStore(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  { url, plan, status, formState, formToken = pageToken(app, url.pathname) }: RenderStep,
) {
  const locale = localeFromPath(url.pathname)
  const i18n = app.i18nFor(locale)
  const t = i18n.t.bind(i18n) as unknown as Translate
  const result = await app.renderer.render({
    request: toFetchRequest(url, request, reply),
    locale,
    i18n,
    assets: app.renderer.assets,
    baseUrl: app.config.APP_BASE_URL,
    policy: app.policyFacts,
    waitForAll: isbot(request.headers['user-agent'] ?? ''),
    timeoutMs: app.config.RENDER_TIMEOUT_MS,
    onError: (error) => {
      app.countRenderError()
      request.log.error({ err: error }, 'render failed')
    },
    formState,
    formToken,
    runtime: app.runtimeConfig,
    headStart: app.renderer.headStart,
    // A page of the table gets its own preview and structured data; a 404 or 500 the site's.
    head: (routed) =>
      pageHead(routed === 200 ? pageAt(url.pathname)?.page : undefined, routed, {
        baseUrl: app.config.APP_BASE_URL,
        locale,
        t,
        shareImages: app.renderer.shareImages,
      }),
  })
  if (result.kind === 'redirect') return reply.redirect(result.location, result.status)

  const answered = status ?? result.status
  // Only a page rendered as itself has the validator (not a 404 or the error page).
  if (plan.kind === 'page' && answered === 200) reply.header('ETag', plan.etag)
  reply.code(answered)
  for (const [name, value] of result.headers) reply.header(name, value)
  reply.header('Cache-Control', 'no-cache')
  keepRendered(app.pageCache, plan, answered, result)
  return reply.send(compressForClient(reply, request.headers['accept-encoding'], result.body))
}
