import { LOCALIZED_PAGES, type LocalizedPage } from '#shared/pages.ts'
import { service } from '#shared/services.ts'

/**
 * What decides a page's layout: its screen, and for a service page the sections its entry in
 * `shared/services.ts` lists (the security and support-package sections are only on some).
 */
function layoutOf({ page }: LocalizedPage): string {
  return 'service' in page
    ? `${page.screen}:${service(page.service).sections.join(',')}`
    : page.screen
}

/**
 * One page of every layout in each locale, from the route table: a page type or a service
 * section added there is checked without editing a test. Texts differ in length per language,
 * so layouts are checked in all three.
 */
export const ONE_PAGE_PER_LAYOUT: readonly LocalizedPage[] = LOCALIZED_PAGES.filter(
  (entry, index, all) =>
    all.findIndex(
      (other) => layoutOf(other) === layoutOf(entry) && other.locale === entry.locale,
    ) === index,
)
