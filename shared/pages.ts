import type { FileNamespace } from './texts.ts'
import { LOCALES, localizePath, type Locale } from './locales.ts'
import { SERVICES, serviceNamespace, servicePath, type ServiceSlug } from './services.ts'
import { TEAM, teamPath, type TeamSlug } from './team.ts'

/**
 * The site's pages: one entry per route, the same path in every locale
 * (docs/languages.md#languages). Routes, the sitemap, the server's page cache and canonical
 * redirects, the pages' texts to embed and their code chunks are computed from this table; services
 * and team members add their pages from their own tables. Order here is the sitemap's order.
 */
type PageEntry = {
  id: string
  /** Unprefixed path; `/de` and `/pl` are put in front of it for the other locales. */
  path: string
  /** The page module that renders it: `client/pages/<screen>-page.tsx`. */
  screen: string
  /** i18next namespaces the page reads besides those every page has. */
  namespaces: readonly FileNamespace[]
  service?: ServiceSlug
  member?: TeamSlug
}

export const PAGES = [
  { id: 'home', path: '/', screen: 'home', namespaces: ['home'] },
  { id: 'services', path: '/services', screen: 'services', namespaces: ['services'] },
  ...SERVICES.map(
    ({ slug }) =>
      ({
        id: `service-${slug}`,
        path: servicePath(slug),
        screen: 'service',
        namespaces: ['services', serviceNamespace(slug)],
        service: slug,
      }) as const,
  ),
  { id: 'about', path: '/about', screen: 'about', namespaces: ['about', 'team'] },
  ...TEAM.map(
    ({ slug }) =>
      ({
        id: `team-${slug}`,
        path: teamPath(slug),
        screen: 'team',
        namespaces: ['team', 'about'],
        member: slug,
      }) as const,
  ),
  { id: 'contact', path: '/contact', screen: 'contact', namespaces: ['contact'] },
  { id: 'imprint', path: '/imprint', screen: 'imprint', namespaces: ['imprint'] },
  { id: 'terms-of-service', path: '/terms-of-service', screen: 'terms', namespaces: ['terms'] },
  { id: 'privacy-policy', path: '/privacy-policy', screen: 'privacy', namespaces: ['privacy'] },
  { id: 'cookie-policy', path: '/cookie-policy', screen: 'cookies', namespaces: ['cookies'] },
  {
    id: 'accessibility',
    path: '/accessibility',
    screen: 'accessibility',
    namespaces: ['accessibility'],
  },
] as const satisfies readonly PageEntry[]

export type Page = (typeof PAGES)[number]
export type PageId = Page['id']
export type Screen = Page['screen']
/** The page entry a screen renders: `ScreenPage<'service'>` has a `service`. */
export type ScreenPage<S extends Screen> = Extract<Page, { screen: S }>

export function page(id: PageId): Page {
  const found = PAGES.find((candidate) => candidate.id === id)
  if (!found) throw new Error(`Unknown page: ${id}`)
  return found
}

/** Is `path` (unprefixed) one of the table's pages? */
export function isPagePath(path: string): boolean {
  return PAGES.some((page) => page.path === path)
}

/** The page module's source path: its key in Vite's manifest. */
export function screenSource(screen: Screen): string {
  return `client/pages/${screen}-page.tsx`
}

/** Every page module, in the table's order. */
export const SCREENS: readonly Screen[] = [...new Set(PAGES.map((page) => page.screen))]

/** One page of each screen: what the audit looks at. */
export function screenSample(screen: Screen): Page {
  const page = PAGES.find((candidate) => candidate.screen === screen)
  if (!page) throw new Error(`No page renders ${screen}`)
  return page
}

export type LocalizedPage = { id: PageId; page: Page; locale: Locale; path: string }

/** Every page in every locale (16 × 3 = 48 paths today). */
export const LOCALIZED_PAGES: readonly LocalizedPage[] = /* @__PURE__ */ PAGES.flatMap((page) =>
  LOCALES.map((locale) => ({ id: page.id, page, locale, path: localizePath(locale, page.path) })),
)

let byPath: Map<string, LocalizedPage> | undefined

/** The page a (prefixed) path shows, if it is one of the route table's. */
export function pageAt(path: string): LocalizedPage | undefined {
  byPath ??= new Map(LOCALIZED_PAGES.map((entry) => [entry.path, entry]))
  return byPath.get(path)
}
