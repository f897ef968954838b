import type { InitOptions } from 'i18next'
import type about from '../locales/en/about.json'
import type common from '../locales/en/common.json'
import type contact from '../locales/en/contact.json'
import type cookies from '../locales/en/cookies.json'
import type imprint from '../locales/en/imprint.json'
import type mail from '../locales/en/mail.json'
import type privacy from '../locales/en/privacy.json'
import type team from '../locales/en/team.json'
import type terms from '../locales/en/terms.json'
import type home from '../locales/en/home.json'
import type serviceApi from '../locales/en/service-api-integration.json'
import type serviceModernization from '../locales/en/service-business-modernization.json'
import type serviceCloud from '../locales/en/service-cloud-infrastructure.json'
import type servicePresence from '../locales/en/service-digital-presence.json'
import type serviceManaged from '../locales/en/service-managed-it.json'
import type serviceSecurity from '../locales/en/service-security-compliance.json'
import type services from '../locales/en/services.json'
import { companyVariables } from './company.ts'
import { DEFAULT_LOCALE, LOCALES } from './locales.ts'

/** i18next namespaces: `common` for the chrome, one per page area (README, Working on it). */
export const NAMESPACES = [
  'common',
  'home',
  'services',
  'service-cloud-infrastructure',
  'service-business-modernization',
  'service-digital-presence',
  'service-api-integration',
  'service-managed-it',
  'service-security-compliance',
  'about',
  'team',
  'contact',
  'imprint',
  'terms',
  'privacy',
  'cookies',
  'mail',
] as const
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
  interpolation: {
    // React escapes output itself; escaping twice would show `&amp;` to visitors.
    escapeValue: false,
    // Company facts (`{{brand}}`, `{{email}}`, …) in any text, from shared/company.ts.
    defaultVariables: companyVariables(),
  },
  returnNull: false,
  initAsync: false,
} satisfies InitOptions

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common'
    resources: {
      common: typeof common
      home: typeof home
      services: typeof services
      'service-cloud-infrastructure': typeof serviceCloud
      'service-business-modernization': typeof serviceModernization
      'service-digital-presence': typeof servicePresence
      'service-api-integration': typeof serviceApi
      'service-managed-it': typeof serviceManaged
      'service-security-compliance': typeof serviceSecurity
      about: typeof about
      team: typeof team
      contact: typeof contact
      imprint: typeof imprint
      terms: typeof terms
      privacy: typeof privacy
      cookies: typeof cookies
      mail: typeof mail
    }
  }
}
