import { formatList, type Locale } from './locales.ts'
import { TEAM } from './team.ts'
import { typeset } from './typography.ts'

/**
 * Company facts: the one place the company edits its name, address, register entry and
 * contact details. Footer, imprint, contact page, legal texts and structured data read them.
 * The values are SAMPLES. `CompanyFactsSchema` (company-schema.ts) checks them when the server
 * starts and in the tests, so a typo stops the build rather than reaching the imprint.
 */
/**
 * A place as each language names it ("Frankfurt nad Menem" in Polish): running text uses the
 * reader's name for a city. Postal addresses keep the German name the post office uses, and so
 * does a language with no name of its own for the place (or none written here yet)
 * (docs/decisions/german-names-people-as-business-writing-does.md).
 */
type PlaceName = Readonly<{ de: string } & Partial<Record<Locale, string>>>

/** The place as the language names it, or its German name. */
function placeName(place: PlaceName, locale: Locale): string {
  return place[locale] ?? place.de
}

const FRANKFURT: PlaceName = {
  en: 'Frankfurt am Main',
  de: 'Frankfurt am Main',
  pl: 'Frankfurt nad Menem',
}

export const COMPANY = {
  brand: 'Modernwerk',
  legalName: 'Modernwerk Weber & Nowak IT-Beratung PartG',
  legalForm: 'Partnerschaftsgesellschaft',
  foundingYear: 2020,
  address: {
    street: 'Musterstraße 12',
    postalCode: '10115',
    city: 'Berlin',
    country: 'DE',
  },
  register: { court: 'Amtsgericht Charlottenburg', number: 'PR 1234 B' },
  vatId: 'DE123456789',
  /** The partners of the PartG: the co-founders, each with a team page (shared/team.ts). */
  partners: TEAM.map((member) => member.name),
  /** Responsible for content under § 18 (2) MStV. */
  contentResponsible: 'Jonas Weber',
  /** Countries whose businesses the company serves (ISO 3166-1), named in structured data. */
  areaServed: ['DE', 'PL'],
  email: 'kontakt@modernwerk.example',
  phone: '+49 30 1234567-0',
  /** Local times of the IANA zone: CET in winter, CEST in summer. */
  businessHours: { timeZone: 'Europe/Berlin', weekdays: { opens: '9:00', closes: '18:00' } },
  hosting: { provider: 'Beispiel Rechenzentrum GmbH', location: FRANKFURT },
  mailProvider: 'Beispiel Mail GmbH',
  /** Named by the privacy policy as a processor only while `CDN_URL` is set. */
  cdn: {
    provider: 'Beispiel CDN GmbH',
    location: FRANKFURT,
    /** Its contract's deletion period for the request logs of our scripts (Art. 13(2)(a) GDPR). */
    logRetentionDays: 7,
  },
  supervisoryAuthority: {
    name: 'Berliner Beauftragte für Datenschutz und Informationsfreiheit',
    address: 'Alt-Moabit 59–61, 10555 Berlin',
  },
} as const

export type CompanyFacts = typeof COMPANY

/** `tel:` link target: digits and the leading plus only. */
export function phoneHref(phone: string): string {
  return `tel:${phone.replace(/[^+\d]/g, '')}`
}

/**
 * The facts as i18next interpolation values: every text may use `{{legalName}}`, `{{city}}`
 * and the others (they are i18next's default variables), so no text repeats a fact.
 */
export function companyVariables() {
  const { address, register, supervisoryAuthority } = COMPANY
  return {
    brand: COMPANY.brand,
    legalName: COMPANY.legalName,
    street: address.street,
    postalCode: address.postalCode,
    city: address.city,
    email: COMPANY.email,
    phone: COMPANY.phone,
    registerCourt: register.court,
    registerNumber: register.number,
    vatId: COMPANY.vatId,
    foundingYear: COMPANY.foundingYear,
    hostingProvider: COMPANY.hosting.provider,
    mailProvider: COMPANY.mailProvider,
    cdnProvider: COMPANY.cdn.provider,
    supervisoryAuthority: supervisoryAuthority.name,
    supervisoryAuthorityAddress: supervisoryAuthority.address,
  }
}

/**
 * The company's country in a language, from its ISO code (`DE`): "Germany", "Deutschland",
 * "Niemcy". Derived rather than typed into the texts, so it always matches the address.
 */
export function countryName(locale: string): string {
  const { country } = COMPANY.address
  return new Intl.DisplayNames(locale, { type: 'region' }).of(country) ?? country
}

/**
 * The postal address as its lines, the country last: visitors from Poland (and anywhere else
 * outside Germany) need it to write to the company. Footer, contact page and imprint show these.
 */
export function postalAddressLines(locale: string): [string, string, string] {
  const { street, postalCode, city } = COMPANY.address
  return [street, `${postalCode} ${city}`, countryName(locale)]
}

/**
 * The company variables plus those that depend on the language (partners' names, country,
 * place names). Texts using these are rendered with them passed to `t()`.
 */
export function companyPlaceholders(locale: Locale) {
  return {
    ...companyVariables(),
    country: countryName(locale),
    hostingLocation: placeName(COMPANY.hosting.location, locale),
    cdnLocation: placeName(COMPANY.cdn.location, locale),
    // Typeset like copy: a value passed to t() is kept as it is (shared/typography.ts).
    partners: typeset(formatList(COMPANY.partners, locale), locale),
  }
}
