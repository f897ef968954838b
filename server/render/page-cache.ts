import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

export type CachedPage = {
  body: Buffer
  /** Filled in the background after the page is stored; served once ready. */
  br?: Buffer
  gzip?: Buffer
  /** The strong validator the page was served with. */
  etag: string
  /** Pages show the current year: a page kept from last year is rendered again. */
  year: number
  /** The response headers besides the security headers, made once. */
  headers: Record<string, string>
}

/** At most this many pages: the route table's, in every locale, with room to spare. */
const MAX_PAGES = 256

/**
 * Rendered pages kept in memory. A page is the same bytes for every visitor of one build,
 * path and year, so it is rendered once and then served from here, with its brotli and gzip
 * forms made once in the background. Only the route table's pages without a query are kept
 * (a bounded set), and only renders that finished without any error.
 */
export class PageCache {
  #pages = new Map<string, CachedPage>()

  /** The page stored under a path, if it is still this year's. */
  get(path: string, year: number): CachedPage | undefined {
    const page = this.#pages.get(path)
    return page?.year === year ? page : undefined
  }

  set(path: string, body: Buffer, etag: string, year: number, vary: string): void {
    if (!this.#pages.has(path) && this.#pages.size >= MAX_PAGES) return
    const page: CachedPage = {
      body,
      etag,
      year,
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

  /** Keep a rendered 404 page as a template if the path occurs in it exactly once. */
  setNotFound(locale: string, year: number, body: Buffer, path: string): void {
    const html = body.toString('utf8')
    const at = html.indexOf(path)
    if (at < 0 || html.indexOf(path, at + 1) >= 0) return
    this.#notFound.set(locale, {
      year,
      before: Buffer.from(html.slice(0, at)),
      after: Buffer.from(html.slice(at + path.length)),
    })
  }
}

export type NotFoundTemplate = { year: number; before: Buffer; after: Buffer }

/**
 * Paths whose 404 page the template may answer: only characters that React's text escaping
 * leaves alone, so the template's bytes are exactly what a render would produce.
 */
export const TEMPLATE_SAFE_PATH = /^\/[A-Za-z0-9\-._~/%]{0,300}$/

export function fillNotFound(template: NotFoundTemplate, path: string): Buffer {
  return Buffer.concat([template.before, Buffer.from(path), template.after])
}
