import { LOCALES, localizePath, type Locale } from './locales.ts'
import { TEAM } from './team.ts'

/**
 * The site's route table: one entry per screen, the same slug in every locale (README, Languages).
 * Locales are applied to it (`localizedPaths`); nothing else lists paths by hand.
 */
export const TEAM_SLUGS = TEAM.map((member) => member.slug)

export const SERVICE_SLUGS = [
  'cloud-infrastructure',
  'business-modernization',
  'digital-presence',
  'api-integration',
  'managed-it',
  'security-compliance',
] as const

export type ServiceSlug = (typeof SERVICE_SLUGS)[number]

export const PAGES = [
  { id: 'home', path: '/' },
  { id: 'about', path: '/about' },
  { id: 'contact', path: '/contact' },
  { id: 'imprint', path: '/imprint' },
  ...TEAM_SLUGS.map((slug) => ({ id: `team-${slug}`, path: `/team/${slug}` }) as const),
  { id: 'cookie-policy', path: '/cookie-policy' },
  { id: 'privacy-policy', path: '/privacy-policy' },
  { id: 'terms-of-service', path: '/terms-of-service' },
  { id: 'services', path: '/services' },
  ...SERVICE_SLUGS.map((slug) => ({ id: `service-${slug}`, path: `/services/${slug}` }) as const),
] as const

export type Page = (typeof PAGES)[number]
export type PageId = Page['id']

export function pagePath(id: PageId): string {
  const page = PAGES.find((candidate) => candidate.id === id)
  if (!page) throw new Error(`Unknown page id: ${id}`)
  return page.path
}

export function servicePath(slug: ServiceSlug): string {
  return `/services/${slug}`
}

/** Is `path` (unprefixed) one of the route table's pages? */
export function isPagePath(path: string): boolean {
  return PAGES.some((page) => page.path === path)
}

/** Every page in every locale: 16 × 3 = 48 paths. */
export function localizedPaths(): { id: PageId; locale: Locale; path: string }[] {
  return PAGES.flatMap((page) =>
    LOCALES.map((locale) => ({ id: page.id, locale, path: localizePath(locale, page.path) })),
  )
}
