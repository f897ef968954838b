/**
 * Where a visit comes from, reduced to a fixed set of sources (issue #35, "Which pages bring
 * leads"): the `Referer`'s host matched against a table, or an allow-listed `utm_source`.
 * Never the referrer itself: a metric label from this table has a bounded number of values,
 * and nothing of the visitor's path elsewhere is kept.
 *
 * One place per source: its id (the label value), the hosts that mean it (the registrable
 * name before the public suffix, so `google.de` and `www.google.co.uk` are both Google), and
 * the `utm_source` values a campaign link may use for it.
 */
export const TRAFFIC_SOURCES = [
  { id: 'google', names: ['google'], utm: ['google'] },
  { id: 'bing', names: ['bing'], utm: ['bing'] },
  { id: 'duckduckgo', names: ['duckduckgo'], utm: [] },
  { id: 'ecosia', names: ['ecosia'], utm: [] },
  { id: 'qwant', names: ['qwant'], utm: [] },
  { id: 'startpage', names: ['startpage'], utm: [] },
  { id: 'yahoo', names: ['yahoo'], utm: [] },
  { id: 'brave', names: ['search.brave'], utm: [] },
  { id: 'linkedin', names: ['linkedin', 'lnkd'], utm: ['linkedin'] },
  { id: 'xing', names: ['xing'], utm: ['xing'] },
  // Links in e-mails the company sends (offers, signatures, mailings): it runs no newsletter,
  // as the privacy policy says (docs/decisions/statistics-in-the-privacy-policy.md).
  { id: 'email', names: [], utm: ['email', 'newsletter'] },
] as const

/** Besides the table: another site (`other`), no referrer (`none`, typed or bookmarked). */
export type TrafficSource = (typeof TRAFFIC_SOURCES)[number]['id'] | 'other' | 'none'

export const TRAFFIC_SOURCE_IDS: readonly TrafficSource[] = [
  ...TRAFFIC_SOURCES.map((source) => source.id),
  'other',
  'none',
]

/** Longer than any host name (253 characters): such a header is not a referrer to read. */
const MAX_REFERER = 2048

/**
 * The source of a document request: an allow-listed `utm_source` first (a campaign link says
 * where it was placed), else the referrer's host, else `none`. A referrer of this site's own
 * (`ownHost`: a reload, a full navigation between its pages) is no source: `none`.
 */
export function trafficSource(
  referer: string | undefined,
  utmSource: string | null,
  ownHost: string,
): TrafficSource {
  const campaign = utmSource?.trim().toLowerCase()
  if (campaign) {
    const tagged = TRAFFIC_SOURCES.find((source) =>
      (source.utm as readonly string[]).includes(campaign),
    )
    if (tagged) return tagged.id
  }
  const url = referer && referer.length <= MAX_REFERER ? URL.parse(referer) : null
  if (!url) return 'none'
  const { protocol, hostname } = url
  if (protocol !== 'https:' && protocol !== 'http:') return 'other'
  const host = hostname.toLowerCase().replace(/\.$/, '')
  if (host === ownHost.toLowerCase()) return 'none'
  const labels = host.split('.')
  const known = TRAFFIC_SOURCES.find((source) =>
    (source.names as readonly string[]).some((name) => namesHost(name, labels)),
  )
  return known?.id ?? 'other'
}

/** Second-level labels of country suffixes (`co.uk`, `com.pl`, `com.au`). */
const SECOND_LEVEL = new Set(['co', 'com', 'net', 'org'])

/**
 * Whether `name` (one or more labels, `search.brave`) is the registrable part of a host:
 * followed only by a top-level domain (`.de`) or a country's second level (`.co.uk`,
 * `.com.pl`), so `www.google.de` matches and `google.example.com` does not.
 */
function namesHost(name: string, labels: readonly string[]): boolean {
  const wanted = name.split('.')
  for (let start = 0; start + wanted.length < labels.length; start++) {
    const suffix = labels.slice(start + wanted.length)
    const isSuffix =
      suffix.length === 1 || (suffix.length === 2 && SECOND_LEVEL.has(suffix[0] ?? ''))
    if (isSuffix && wanted.every((label, index) => labels[start + index] === label)) return true
  }
  return false
}
