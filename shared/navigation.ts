/**
 * Which URLs the site may navigate to (docs/operations.md#deployments-and-version-skew). Internal
 * paths go through the router; another origin needs an explicit `external` flag; script-like
 * protocols never pass.
 */
const FORBIDDEN_PROTOCOLS = ['javascript:', 'data:', 'blob:', 'vbscript:'] as const

export type NavigationTarget =
  { kind: 'internal'; path: string } | { kind: 'external'; url: string }

/**
 * Classify a navigation target or throw. Browsers ignore leading spaces and control
 * characters and tabs or line breaks anywhere in a URL, and schemes are case-insensitive, so
 * ` \tJaVa\nscript:` is `javascript:`: the check sees the URL the way the browser will.
 */
export function resolveNavigation(
  to: string,
  options: { external?: boolean; origin: string },
): NavigationTarget {
  const cleaned = to.replace(/^[\p{Cc} ]+/u, '').replace(/[\t\n\r]/g, '')
  const scheme = /^([a-z][a-z\d+.-]*):/i.exec(cleaned)?.[1]?.toLowerCase()
  if (scheme && (FORBIDDEN_PROTOCOLS as readonly string[]).includes(`${scheme}:`)) {
    throw new Error(`Navigating to a URL with the protocol "${scheme}:" is not allowed`)
  }
  const url = new URL(cleaned, options.origin)
  if (url.origin === options.origin) {
    return { kind: 'internal', path: `${url.pathname}${url.search}${url.hash}` }
  }
  if (!options.external) {
    throw new Error('Navigating to an external URL is not allowed by default')
  }
  if (!['https:', 'http:', 'mailto:', 'tel:'].includes(url.protocol)) {
    throw new Error(`Navigating to a URL with the protocol "${url.protocol}" is not allowed`)
  }
  return { kind: 'external', url: url.href }
}
