import { createHash } from 'node:crypto'
import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'
import type { FastifyReply, FastifyRequest } from 'fastify'
import { formAt, queryThePageReads } from '#shared/contact-fields.ts'
import { localeFromPath } from '#shared/locales.ts'
import { pageAt } from '#shared/pages.ts'
import { chooseEncoding, compressForClient, compressStream } from './content-encoding.ts'

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

export type CachedPage = {
  body: Buffer
  /**
   * Filled in the background after the page is stored; until then the page is compressed
   * while it is sent, as a render is (`sendKept`).
   */
  br?: Buffer
  gzip?: Buffer
  /** The strong validator the page was served with. */
  etag: string
  /** What makes a kept page stale besides the build (`pageEdition`). */
  edition: string
  /** The response headers besides the security headers, made once. */
  headers: Record<string, string>
  /**
   * The headers the request hooks wrote on the response the page was kept from: Helmet's
   * (through @fastify/helmet) and the site's own (`response-headers.ts`), the request id
   * left out. A hit answered before those hooks (`replayKeptPage`) sends these instead.
   */
  hookHeaders: HookHeaders
}

/** Response headers as `reply.getHeaders()` gives them. */
export type HookHeaders = Record<string, string | number | string[]>

/** Headers of one response only: never stored with a page. */
const PER_RESPONSE = new Set([
  'x-request-id',
  'content-length',
  'content-encoding',
  'transfer-encoding',
  'date',
  'connection',
  'keep-alive',
])

/**
 * The headers the request hooks (@fastify/helmet's, the site's own) have written so far, as
 * they apply to every answer of a page: read before the page's own headers are set.
 */
export function hookHeaders(reply: FastifyReply): HookHeaders {
  const headers: HookHeaders = {}
  for (const [name, value] of Object.entries(reply.getHeaders())) {
    if (value !== undefined && !PER_RESPONSE.has(name)) headers[name] = value
  }
  return headers
}

/** At most this many pages without a query: the route table's, in every locale, with room to spare. */
const MAX_PAGES = 256

/**
 * At most this many pages with a query a page reads (`queryThePageReads`: a form's answer, a
 * preselected choice): a bounded set, kept apart so that no run through them crowds out a page.
 */
const MAX_QUERIED_PAGES = 128

/**
 * Rendered pages kept in memory (docs/decisions/pages-kept-in-memory.md). A page is the same
 * bytes for every visitor of one build, path and edition (`pageEdition`), so it is rendered once
 * and then served from here, with its Brotli and gzip forms made once in the background. Only the
 * route table's pages are kept, under their path and the part of the query they read (a bounded
 * set: a campaign's `?utm_source=` is the page without it), and only renders that finished
 * without any error.
 */
export class PageCache {
  #pages = new Map<string, CachedPage>()
  #queried = 0

  /** The page stored under a path, if it is still of this edition. */
  get(path: string, edition: string): CachedPage | undefined {
    const page = this.#pages.get(path)
    return page?.edition === edition ? page : undefined
  }

  set(
    path: string,
    body: Buffer,
    etag: string,
    edition: string,
    vary: string,
    hookHeaders: HookHeaders,
  ): void {
    if (!this.#pages.has(path)) {
      const hasQuery = path.includes('?')
      if (
        hasQuery
          ? this.#queried >= MAX_QUERIED_PAGES
          : this.#pages.size - this.#queried >= MAX_PAGES
      )
        return
      if (hasQuery) this.#queried += 1
    }
    const page: CachedPage = {
      body,
      etag,
      edition,
      hookHeaders,
      headers: {
        'content-type': 'text/html; charset=utf-8',
        'cache-control': 'no-cache',
        etag,
        vary,
      },
    }
    this.#pages.set(path, page)
    void Promise.all([
      brotli(body, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }),
      gzipAsync(body, { level: 9 }),
    ]).then(
      ([br, gz]) => {
        page.br = br
        page.gzip = gz
      },
      () => {}, // uncompressed is still right
    )
  }

  /** Whether a page is kept under this path (no query), of any edition. */
  has(path: string): boolean {
    return this.#pages.has(path)
  }

  get size(): number {
    return this.#pages.size
  }

  #notFound = new Map<string, NotFoundTemplate>()

  /**
   * The 404 page of a locale shows the requested path once and is otherwise the same for
   * every path: kept as the bytes around that path, it answers unknown paths (scanners, old
   * links) without rendering React each time.
   */
  notFound(locale: string, year: number): NotFoundTemplate | undefined {
    const template = this.#notFound.get(locale)
    return template?.year === year ? template : undefined
  }

  /** Whether any locale's 404 page is kept, of any year. */
  get hasNotFound(): boolean {
    return this.#notFound.size > 0
  }

  /** Keep a rendered 404 page as a template if the path occurs in it exactly once. */
  setNotFound(
    locale: string,
    year: number,
    body: Buffer,
    path: string,
    hookHeaders: HookHeaders,
  ): void {
    const html = body.toString('utf8')
    const at = html.indexOf(path)
    if (at < 0 || html.indexOf(path, at + 1) >= 0) return
    this.#notFound.set(locale, {
      year,
      before: Buffer.from(html.slice(0, at)),
      after: Buffer.from(html.slice(at + path.length)),
      hookHeaders,
    })
  }
}

export type NotFoundTemplate = {
  year: number
  before: Buffer
  after: Buffer
  /** What the request hooks wrote on the answer the template was made from (`CachedPage`). */
  hookHeaders: HookHeaders
}

/**
 * Paths whose 404 page the template may answer: only characters that React's text escaping
 * leaves alone, so the template's bytes are exactly what a render would produce.
 */
const TEMPLATE_SAFE_PATH = /^\/[A-Za-z0-9\-._~/%]{0,300}$/

function fillNotFound(template: NotFoundTemplate, path: string): Buffer {
  return Buffer.concat([template.before, Buffer.from(path), template.after])
}

/**
 * What the cache may do with one page request, decided before rendering:
 * - `page`: a page of the table. It has a strong validator (same build, path, the query the
 *   page reads and edition, same bytes), and it is kept after one clean render.
 * - `not-found`: an unknown path whose 404 page the locale's template can answer.
 * - `none`: development, form answers, paths the template must not hold.
 */
export type CachePlan = PagePlan | NotFoundPlan | { kind: 'none' }

type NotFoundPlan = {
  kind: 'not-found'
  locale: string
  path: string
  year: number
  /** What the request hooks wrote on this response, to keep with the template; null: not kept. */
  hookHeaders: HookHeaders | null
}

/**
 * A page of the table: its cache key (the path and the query the page reads, which is also the
 * URL it is rendered for), edition, `Vary` and validator.
 */
class PagePlan {
  readonly kind = 'page'
  readonly key: string
  readonly edition: string
  readonly vary: string
  /** What the request hooks wrote on this response, to keep with the page; null: not kept. */
  readonly hookHeaders: HookHeaders | null
  readonly #buildId: string
  #etag: string | undefined

  constructor(
    path: PagePath,
    edition: string,
    vary: string,
    buildId: string,
    hookHeaders: (() => HookHeaders) | null,
  ) {
    this.key =
      path.search === ''
        ? path.pathname
        : path.pathname + queryThePageReads(path.pathname, new URLSearchParams(path.search))
    this.edition = edition
    this.vary = vary
    this.hookHeaders = hookHeaders ? hookHeaders() : null
    this.#buildId = buildId
  }

  /** Hashed only when needed: a page served from memory answers with the one it was kept with. */
  get etag(): string {
    const input = `${this.#buildId}\n${this.key}\n${this.edition}`
    return (this.#etag ??= `"${createHash('sha256').update(input).digest('base64url').slice(0, 27)}"`)
  }
}

/** The part of a request URL the page pipeline reads. */
export type PagePath = Pick<URL, 'pathname' | 'search'>

let year = 0
let nextYearAt = 0

/** The current year (local time, as the footer shows it), worked out again only at New Year. */
export function currentYear(now = Date.now()): number {
  if (now >= nextYearAt) {
    year = new Date(now).getFullYear()
    nextYearAt = new Date(year + 1, 0, 1).getTime()
  }
  return year
}

/**
 * How long a page with a form is kept before it is rendered again with a new token
 * (docs/contact.md#spam-defence): its token is at most this old when a visitor gets the page.
 */
export const FORM_PAGE_WINDOW_MS = 30 * 60_000

/**
 * What a kept page depends on besides build and path: the year its footer shows, and for a
 * page with a form the window its token was made in.
 */
export function pageEdition(pathname: string, now = Date.now()): string {
  const year = String(currentYear(now))
  return formAt(pathname) ? `${year}.${Math.floor(now / FORM_PAGE_WINDOW_MS)}` : year
}

export function planCaching(
  path: PagePath,
  options: {
    isProduction: boolean
    buildId: string
    vary: string
    /** Reads the request hooks' headers, for a page rendered now; null when only looked up. */
    hookHeaders: (() => HookHeaders) | null
  },
): CachePlan {
  if (!options.isProduction) return { kind: 'none' }
  const year = currentYear()
  if (pageAt(path.pathname)) {
    return new PagePlan(
      path,
      pageEdition(path.pathname),
      options.vary,
      options.buildId,
      options.hookHeaders,
    )
  }
  if (!TEMPLATE_SAFE_PATH.test(path.pathname)) return { kind: 'none' }
  return {
    kind: 'not-found',
    locale: localeFromPath(path.pathname),
    path: path.pathname,
    year,
    hookHeaders: options.hookHeaders?.() ?? null,
  }
}

/**
 * Step 2 of a page request: answer from memory when the cache can (a kept page, a 304 for a
 * page the browser has, the 404 template). Returns whether it answered.
 */
export function answerFromCache(
  cache: PageCache,
  plan: CachePlan,
  request: FastifyRequest,
  reply: FastifyReply,
): boolean {
  if (plan.kind === 'page') {
    const cached = cache.get(plan.key, plan.edition)
    if (cached) {
      sendKept(cached, request, reply)
      return true
    }
    if (request.headers['if-none-match'] === plan.etag) {
      void reply.code(304).headers({ etag: plan.etag, 'cache-control': 'no-cache' }).send()
      return true
    }
    return false
  }
  if (plan.kind === 'not-found') {
    const template = cache.notFound(plan.locale, plan.year)
    if (!template) return false
    sendNotFound(template, plan.path, request, reply)
    return true
  }
  return false
}

/** The 404 page of an unknown path, from its locale's template. */
export function sendNotFound(
  template: NotFoundTemplate,
  path: string,
  request: FastifyRequest,
  reply: FastifyReply,
): void {
  void reply
    .code(404)
    .type('text/html; charset=utf-8')
    .header('Cache-Control', 'no-cache')
    .send(
      compressForClient(reply, request.headers['accept-encoding'], fillNotFound(template, path)),
    )
}

/**
 * A kept page's answer: 304 for the copy the browser has, else the encoding the client prefers,
 * compressed while it is sent until the kept form is ready: never the whole page uncompressed to
 * a client that accepts less.
 */
export function sendKept(cached: CachedPage, request: FastifyRequest, reply: FastifyReply): void {
  reply.headers(cached.headers)
  if (request.headers['if-none-match'] === cached.etag) {
    void reply.code(304).send()
    return
  }
  const encoding = chooseEncoding(request.headers['accept-encoding'])
  reply.code(200)
  if (!encoding) {
    void reply.send(cached.body)
    return
  }
  reply.header('content-encoding', encoding)
  void reply.send(cached[encoding] ?? compressStream(encoding, cached.body))
}

/** After a render: keep the streamed document if it is what the plan may keep. */
export function keepRendered(
  cache: PageCache,
  plan: CachePlan,
  status: number,
  rendered: { body: NodeJS.ReadableStream; isComplete: Promise<boolean> },
): void {
  const isPage = plan.kind === 'page' && plan.hookHeaders !== null && status === 200
  const isNotFound = plan.kind === 'not-found' && plan.hookHeaders !== null && status === 404
  if (!isPage && !isNotFound) return
  // The visitor gets the stream; the cache keeps a copy once it completed without error.
  const chunks: Buffer[] = []
  rendered.body.on('data', (chunk: Buffer) => chunks.push(chunk))
  void rendered.isComplete.then((isComplete) => {
    if (!isComplete) return
    const body = Buffer.concat(chunks)
    if (plan.kind === 'page' && plan.hookHeaders) {
      cache.set(plan.key, body, plan.etag, plan.edition, plan.vary, plan.hookHeaders)
    } else if (plan.kind === 'not-found' && plan.hookHeaders) {
      cache.setNotFound(plan.locale, plan.year, body, plan.path, plan.hookHeaders)
    }
  })
}
