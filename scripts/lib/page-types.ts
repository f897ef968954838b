import { SCREENS, screenSample } from '#shared/pages.ts'

/**
 * One page of each page module of the table, and the 404 page, by name: what the audit and the
 * first-view measure load. Paths are English; `localizePath` gives a locale's.
 */
export const PAGE_TYPES: Record<string, string> = {
  ...Object.fromEntries(SCREENS.map((screen) => [screen, screenSample(screen).path])),
  '404': '/this-page-does-not-exist',
}

/** The page types in the table's order, the 404 page last. */
export const PAGE_ORDER: string[] = Object.keys(PAGE_TYPES)
