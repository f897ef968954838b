import type { InitOptions } from 'i18next'
import type about from '../locales/en/about.json'
import type accessibility from '../locales/en/accessibility.json'
import type common from '../locales/en/common.json'
import type contact from '../locales/en/contact.json'
import type cookies from '../locales/en/cookies.json'
import type home from '../locales/en/home.json'
import type imprint from '../locales/en/imprint.json'
import type mail from '../locales/en/mail.json'
import type privacy from '../locales/en/privacy.json'
import type servicePattern from '../locales/en/service-cloud-infrastructure.json'
import type serviceManagedIt from '../locales/en/service-managed-it.json'
import type serviceSecurity from '../locales/en/service-security-compliance.json'
import type services from '../locales/en/services.json'
import type team from '../locales/en/team.json'
import type terms from '../locales/en/terms.json'
import { companyVariables } from './company.ts'
import { FIGURES } from './figures.ts'
import { DEFAULT_LOCALE, LOCALES } from './locales.ts'
import type { ServiceNamespace, ServiceSlug, SupportTier } from './services.ts'

/**
 * Every service's texts have the shape of the first service's English file (the pattern the
 * service page renders); a service with extra sections has those texts too, typed from its
 * own file below. `tests/locales` checks that every service file has the whole pattern.
 */
type ServiceTexts = typeof servicePattern
/** What menus and overviews show of a service (`card` in its texts). */
export type ServiceCard = ServiceTexts['card']

/** The texts of the files in `locales/<lng>/`, typed from the English ones. */
export type FileResources = {
  common: typeof common
  home: typeof home
  services: typeof services
  about: typeof about
  team: typeof team
  contact: typeof contact
  imprint: typeof imprint
  terms: typeof terms
  privacy: typeof privacy
  cookies: typeof cookies
  accessibility: typeof accessibility
  mail: typeof mail
} & Record<ServiceNamespace, ServiceTexts> & {
    'service-managed-it': typeof serviceManagedIt
    'service-security-compliance': typeof serviceSecurity
  }

/** A namespace read from one file, `locales/<lng>/<namespace>.json`. */
export type FileNamespace = keyof FileResources

/**
 * Namespaces gathered from other files rather than read from one: `service-cards` holds the
 * card of every service, so menus and overviews show all services without loading every
 * service page's texts; `support-plans` the Managed IT packages' names as the contact form offers
 * them (`common:form.planOption`: "Base Package – Business hours support"). The server makes them when it loads
 * the files.
 */
export type DerivedResources = {
  'service-cards': Record<ServiceSlug, ServiceCard>
  'support-plans': Record<SupportTier, string>
}
export type Namespace = FileNamespace | keyof DerivedResources

/**
 * Embedded in every page: the chrome's texts, every service's card (menus, footer) and the
 * packages (a form option's label must be at hand wherever the form is).
 */
export const EVERY_PAGE_NAMESPACES = ['common', 'service-cards', 'support-plans'] as const

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
    // Company facts (`{{brand}}`, `{{email}}`, …) and figures (`{{uptime, number(…)}}`) in
    // any text, from shared/company.ts and shared/figures.ts.
    defaultVariables: { ...companyVariables(), ...FIGURES },
  },
  // No-break spaces by the language's rules (shared/typography.ts), on every text.
  postProcess: ['typeset'],
  returnNull: false,
  initAsync: false,
} satisfies InitOptions

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'common'
    resources: FileResources & DerivedResources
  }
}
