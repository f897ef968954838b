import type { IncomingHttpHeaders } from 'node:http'

/**
 * Where a post came from, as the browser says (docs/contact.md#spam-defence):
 * - `same-origin`: a page of this site;
 * - `foreign`: another site, or another host of the same site;
 * - `unknown`: no browser headers to tell (an old browser, a script): other layers decide.
 *
 * `Sec-Fetch-Site` (Chromium, Firefox, Safari 16.4+) is the browser's own verdict and decides
 * when present. `none` (the visitor typed an address or chose a bookmark) is never sent with a
 * form's post, so a post that carries it is not a browser's word for anything: unknown, never
 * this site's. Otherwise `Origin`, compared with the site's origin (`APP_BASE_URL`);
 * `Origin: null` (a sandboxed or privacy-restricted context) tells nothing.
 */
export type PostOrigin = 'same-origin' | 'foreign' | 'unknown'

export function postOrigin(headers: IncomingHttpHeaders, siteOrigin: string): PostOrigin {
  const site = headers['sec-fetch-site']
  if (typeof site === 'string') {
    if (site === 'none') return 'unknown'
    return site === 'same-origin' ? 'same-origin' : 'foreign'
  }
  const origin = headers.origin
  if (typeof origin !== 'string' || origin === 'null') return 'unknown'
  return origin === siteOrigin ? 'same-origin' : 'foreign'
}
