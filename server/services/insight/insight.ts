import type { IncomingHttpHeaders } from 'node:http'
import { isbot } from 'isbot'
import {
  CONTACT_FORM_IDS,
  CONTACT_FORMS,
  CONTACT_FIELDS,
  fieldOptions,
  SENT_PARAMETER,
  type ContactFormId,
  type ServicePageId,
} from '#shared/contact-fields.ts'
import { LOCALES, type Locale } from '#shared/locales.ts'
import { PAGES, pageAt, type PageId } from '#shared/pages.ts'
import { TRAFFIC_SOURCE_IDS, trafficSource, type TrafficSource } from './traffic-sources.ts'

/**
 * What the site counts to tell which pages bring leads
 * (docs/insight.md#insight-which-pages-bring-leads; decision record `docs/decisions/insight.md`):
 * views of its pages as the server sees them and the leads of its forms, each reduced to labels
 * from the site's own tables. Nothing about a visitor: no address, no user agent, no referrer, no
 * identifier.
 */

/** A page view's labels: the page table's id, the locale, the source of the visit. */
export type PageView = { page: PageId; locale: Locale; source: TrafficSource }

/** What of a page request decides whether it is a view. */
export type PageRequest = {
  method: string
  /** The request's URL as it came (path and query). */
  url: string
  status: number
  headers: IncomingHttpHeaders
}

/**
 * Headers that say a request fetches a page ahead of a click, not for a person looking at it:
 * `Sec-Purpose` (Chromium and Firefox: `prefetch`, `prefetch;prerender`), `Purpose` (Safari,
 * older Chromium), `X-Purpose` (Safari's previews), `X-Moz` (older Firefox).
 */
const AHEAD_OF_A_CLICK = ['sec-purpose', 'purpose', 'x-purpose', 'x-moz'] as const

/**
 * The view a page request is, or null when it is none: a `GET` of one of the page table's
 * paths answered with the page (200, or 304 when the browser's copy was still current), as a
 * document (`Sec-Fetch-Dest: document` where the browser sends it), not fetched ahead of a
 * click, not a known bot's (isbot; no user agent at all is a script's), and not the page a
 * form post without JavaScript was answered with (`?sent=`). Assets, the API, 404s and
 * redirects never get here or answer otherwise.
 */
export function pageView(request: PageRequest, ownHost: string): PageView | null {
  const { method, url, status, headers } = request
  if (method !== 'GET' || (status !== 200 && status !== 304)) return null
  const destination = headers['sec-fetch-dest']
  if (destination !== undefined && destination !== 'document') return null
  if (AHEAD_OF_A_CLICK.some((name) => headers[name] !== undefined)) return null
  const queryAt = url.indexOf('?')
  const entry = pageAt(queryAt === -1 ? url : url.slice(0, queryAt))
  if (!entry) return null
  const userAgent = headers['user-agent']
  if (!userAgent || isbot(userAgent)) return null
  const query = queryAt === -1 ? null : new URLSearchParams(url.slice(queryAt + 1))
  if (query?.has(SENT_PARAMETER)) return null
  return {
    page: entry.id,
    locale: entry.locale,
    source: trafficSource(headers.referer, query?.get('utm_source') ?? null, ownHost),
  }
}

/** Every view's labels there can be: the pages × locales × sources. */
export function allPageViews(): PageView[] {
  return PAGES.flatMap(({ id }) =>
    LOCALES.flatMap((locale) => TRAFFIC_SOURCE_IDS.map((source) => ({ page: id, locale, source }))),
  )
}

/**
 * A lead's labels: its form, the page it counts under (the form's own, or the service page
 * whose call to action opened the contact form), the locale, and the service interest chosen
 * (`interest`: Kubernetes's `service` label names the app's Service when Prometheus scrapes).
 */
export type Lead = { form: ContactFormId; page: PageId; locale: Locale; interest: string }

/** The lead an accepted message is: `service` is the message's field of that name. */
export function leadOf(post: {
  form: ContactFormId
  via?: ServicePageId
  locale: Locale
  service: string
}): Lead {
  const { form, via, locale, service } = post
  return { form, page: via ?? CONTACT_FORMS[form].page, locale, interest: service }
}

const SERVICE_FIELD = CONTACT_FIELDS.find((field) => field.name === 'service')
const SERVICE_PAGES = PAGES.filter((entry) => entry.screen === 'service').map(({ id }) => id)

/**
 * Every lead's labels there can be: each form on its page (the contact form also under each
 * service page) × locales × the interests the form offers.
 */
export function allLeads(): Lead[] {
  if (!SERVICE_FIELD) throw new Error('the field table has no service field')
  return CONTACT_FORM_IDS.flatMap((form) => {
    const pages: PageId[] = [CONTACT_FORMS[form].page, ...(form === 'contact' ? SERVICE_PAGES : [])]
    const interests = fieldOptions(SERVICE_FIELD, form).map((option) => option.value)
    return pages.flatMap((page) =>
      LOCALES.flatMap((locale) => interests.map((interest) => ({ form, page, locale, interest }))),
    )
  })
}
