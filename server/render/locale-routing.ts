import Negotiator from 'negotiator'
import { DEFAULT_LOCALE, isLocale, localizePath, LOCALES, type Locale } from '#shared/locales.ts'
import { pageAt } from '#shared/pages.ts'

/** What to do with a page request before rendering (docs/languages.md#languages). */
export type PageRouting =
  | { kind: 'redirect'; status: 301 | 302; location: string; headers: Record<string, string> }
  | { kind: 'page'; headers: Record<string, string> }

/** The root's answer depends on these request headers; caches must key on them. */
const ROOT_VARY = { Vary: 'Accept-Language, Cookie' }

/**
 * The best supported language of an `Accept-Language` header (q-weights, `de-AT` → `de`), or
 * null when the header names none of ours. Parsing is negotiator's, not ours.
 */
function negotiateLocale(acceptLanguage: string): Locale | null {
  const [best] = new Negotiator({ headers: { 'accept-language': acceptLanguage } }).languages([
    ...LOCALES,
  ])
  return isLocale(best) ? best : null
}

/**
 * Step 1 of a page request: root negotiation and canonical paths.
 * - `/` follows the `i18n_redirected` cookie if valid, else `Accept-Language`, else English;
 *   not English → 302 to `/de` or `/pl`. No header (crawlers) → never redirected.
 * - `/en`, `/en/*` and trailing slashes → 301 to the canonical path, but only when that path
 *   is in the page table: a redirect target is never built from raw input.
 * The query string is kept.
 */
export function routePageRequest(
  url: Pick<URL, 'pathname' | 'search'>,
  acceptLanguage: string | undefined,
  /** The `i18n_redirected` cookie, read only for `/` (no other page parses cookies). */
  readCookieLocale: () => string | undefined,
): PageRouting {
  const { pathname, search } = url
  if (pathname === '/') {
    const cookieLocale = readCookieLocale()
    const locale = isLocale(cookieLocale)
      ? cookieLocale
      : acceptLanguage
        ? (negotiateLocale(acceptLanguage) ?? DEFAULT_LOCALE)
        : DEFAULT_LOCALE
    if (locale === DEFAULT_LOCALE) return { kind: 'page', headers: ROOT_VARY }
    return {
      kind: 'redirect',
      status: 302,
      location: `${localizePath(locale, '/')}${search}`,
      headers: { ...ROOT_VARY, 'Cache-Control': 'private, no-store' },
    }
  }
  let canonical = pathname.replace(/\/+$/, '') || '/'
  if (canonical === '/en' || canonical.startsWith('/en/')) canonical = canonical.slice(3) || '/'
  if (canonical !== pathname && pageAt(canonical)) {
    return { kind: 'redirect', status: 301, location: `${canonical}${search}`, headers: {} }
  }
  return { kind: 'page', headers: {} }
}
