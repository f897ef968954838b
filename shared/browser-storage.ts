import { LOCALE_COOKIE, LOCALE_COOKIE_MAX_AGE_SECONDS } from './locales.ts'

/** The reload guard's session storage entries: `modernwerk:reload:<path>` → time of the reload. */
export const RELOAD_GUARD_KEY_PREFIX = 'modernwerk:reload:'

/**
 * Everything the site stores in a visitor's browser. The cookie policy's table lists exactly
 * these (texts `table.entries.<id>` in `cookies`); the privacy policy describes them.
 */
export const BROWSER_STORAGE = [
  {
    id: 'language',
    name: LOCALE_COOKIE,
    kind: 'cookie',
    lifetimeDays: LOCALE_COOKIE_MAX_AGE_SECONDS / 86_400,
  },
  {
    id: 'reloadGuard',
    name: `${RELOAD_GUARD_KEY_PREFIX}<path>`,
    kind: 'sessionStorage',
    /** Session storage lives as long as the tab. */
    lifetimeDays: null,
  },
] as const
