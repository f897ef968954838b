import { isLegalText } from './legal-texts.ts'
import { page as pageById, type Page } from './pages.ts'
import { serviceNamespace } from './services.ts'
import { teamMember } from './team.ts'

/**
 * Which texts name a page, wherever it is named: its `<title>` and description, its crumb in
 * breadcrumbs, its share image and the search engines' structured data. The page's own hero
 * shows the same `badge` and `title`.
 *
 * `t` resolves a namespaced key (`services:hero.title`) in the page's language; the keys are
 * built here from the page entry, and `tests/shared/page-texts.test.ts` resolves every one of
 * them in every language.
 */
export type Translate = (key: string, values?: Record<string, string>) => string

export type PageTexts = {
  /** The page's short name: its crumb in breadcrumbs and structured data. */
  label: string
  /** What the page is about, in a few words (the hero's badge). */
  badge: string
  /** The page's headline (the hero's `h1`). */
  title: string
  /** The document title: tab, search results, link previews. */
  metaTitle: string
  description: string
}

/** The page's own texts: its namespace and where in it the page's keys start. */
function ownTexts(page: Page): { ns: string; prefix: string } {
  switch (page.screen) {
    case 'service':
      return { ns: serviceNamespace(page.service), prefix: '' }
    case 'team':
      return { ns: 'team', prefix: `members.${teamMember(page.member).key}.` }
    default:
      return { ns: page.namespaces[0], prefix: '' }
  }
}

/** The crumb of a page. Only `common` texts and the page's own are needed, so a page can
 * name every page above it. */
export function pageLabel(page: Page, t: Translate): string {
  switch (page.screen) {
    case 'home':
      return t('common:nav.home')
    case 'services':
    case 'about':
    case 'contact':
      return t(`common:nav.${page.screen}`)
    case 'service':
      return t(`service-cards:${page.service}.name`)
    case 'team':
      return teamMember(page.member).name
    default:
      // The legal pages (LEGAL_TEXTS): named as the footer links them.
      return t(`common:footer.${page.screen}`)
  }
}

/** Everything that names the page (the page's namespaces must be loaded). */
export function pageTexts(page: Page, t: Translate): PageTexts {
  const { ns, prefix } = ownTexts(page)
  const own = (key: string) => t(`${ns}:${prefix}${key}`)
  const meta = { metaTitle: own('meta.title'), description: own('meta.description') }
  const label = pageLabel(page, t)
  switch (page.screen) {
    case 'home':
      return { label, badge: own('hero.eyebrow'), title: own('hero.title'), ...meta }
    case 'team':
      return { label, badge: own('role'), title: label, ...meta }
    default:
      return isLegalText(page.screen)
        ? { label, badge: t('common:footer.legalHeading'), title: own('title'), ...meta }
        : { label, badge: own('hero.badge'), title: own('hero.title'), ...meta }
  }
}

/** The image and preview texts of a page that is none of the table's (404, 500). */
export function genericTexts(t: Translate): Pick<PageTexts, 'badge' | 'title'> {
  return { badge: t('home:hero.eyebrow'), title: t('common:footer.about') }
}

/**
 * The pages above a page, from the home page down, and the page itself last: a service sits
 * under the services overview, a team member under the about page, every other page under
 * the home page. The home page's trail is itself alone.
 */
export function breadcrumbTrail(page: Page): Page[] {
  if (page.screen === 'home') return [page]
  const parent =
    page.screen === 'service'
      ? pageById('services')
      : page.screen === 'team'
        ? pageById('about')
        : pageById('home')
  return [...breadcrumbTrail(parent), page]
}
