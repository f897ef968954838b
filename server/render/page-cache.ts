import { promisify } from 'node:util'
import { brotliCompress, constants, gzip } from 'node:zlib'

const brotli = promisify(brotliCompress)
const gzipAsync = promisify(gzip)

export type CachedPage = {
  body: Buffer
  /** Filled in the background after the page is stored; served once ready. */
  br?: Buffer
  gzip?: Buffer
}

/**
 * Rendered pages kept in memory. A page is the same bytes for every visitor of one build,
 * path and year, so it is rendered once and then served from here, with its brotli and gzip
 * forms made once in the background. Only the route table's pages without a query are kept
 * (a bounded set), and only renders that finished without any error.
 */
export class PageCache {
  #pages = new Map<string, CachedPage>()

  get(key: string): CachedPage | undefined {
    return this.#pages.get(key)
  }

  set(key: string, body: Buffer): void {
    const page: CachedPage = { body }
    this.#pages.set(key, page)
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
}

/** The best encoding of a cached page the client accepts. */
export function pickEncoding(page: CachedPage, acceptEncoding: string | undefined) {
  const accepted = (acceptEncoding ?? '').toLowerCase()
  if (page.br && /\bbr\b/.test(accepted)) return { encoding: 'br', body: page.br }
  if (page.gzip && /\bgzip\b/.test(accepted)) return { encoding: 'gzip', body: page.gzip }
  return { encoding: null, body: page.body }
}
