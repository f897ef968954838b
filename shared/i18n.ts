import type { InitOptions } from 'i18next'
import type common from '../locales/en/common.json'
import type home from '../locales/en/home.json'
import { DEFAULT_LOCALE, LOCALES } from './locales.ts'

/** i18next namespaces: `common` for the chrome, one per page area (STYLE.md, Locales). */
export const NAMESPACES = ['common', 'home'] as const
export type Namespace = (typeof NAMESPACES)[number]

/** The texts of one locale, as embedded in the page for hydration: namespace → JSON tree. */
export type LocaleResources = Partial<Record<Namespace, Record<string, unknown>>>

/** Development: the server's HMR event carrying an edited locale file to the browser. */
export const LOCALE_UPDATE_EVENT = 'modernwerk:locale-update'
export type LocaleUpdate = { locale: string; ns: string; resources: Record<string, unknown> }

/** Options shared by the server's root instance and the browser's instance. */
export const I18N_BASE_OPTIONS = {
  supportedLngs: [...LOCALES],
  fallbackLng: DEFAULT_LOCALE,
  defaultNS: 'common',
  ns: ['common'],
  load: 'languageOnly',
  // React escapes output itself; escaping twice would show `&amp;` to visitors.
  interpolation: { escapeValue: false },
  returnNull: false,
  initAsync: false,
} satisfies InitOptions

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common'
    resources: {
      common: typeof common
      home: typeof home
    }
  }
}
