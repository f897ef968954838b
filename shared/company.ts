import { typeset } from './typography.ts'

/**
 * Company facts: the one place the company edits its name, address, register entry and
 * contact details. Footer, imprint, contact page, legal texts and structured data read them.
 * The values are SAMPLES. `CompanyFactsSchema` (company-schema.ts) checks them when the server
 * starts and in the tests, so a typo stops the build rather than reaching the imprint.
 */
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
  partners: ['Jonas Weber', 'Katarzyna Nowak'],
  /** Responsible for content under § 18 (2) MStV. */
  contentResponsible: 'Jonas Weber',
  email: 'kontakt@modernwerk.example',
  phone: '+49 30 1234567-0',
  businessHours: { timeZone: 'CET', weekdays: { opens: '9:00', closes: '18:00' } },
  hosting: { provider: 'Beispiel Rechenzentrum GmbH', location: 'Frankfurt am Main' },
  mailProvider: 'Beispiel Mail GmbH',
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
  const { address, register, hosting, supervisoryAuthority } = COMPANY
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
    hostingProvider: hosting.provider,
    hostingLocation: hosting.location,
    mailProvider: COMPANY.mailProvider,
    supervisoryAuthority: supervisoryAuthority.name,
    supervisoryAuthorityAddress: supervisoryAuthority.address,
  }
}

/** The company variables plus those that depend on the language (the partners' names). */
export function companyPlaceholders(locale: string) {
  return {
    ...companyVariables(),
    // Typeset like copy: a value passed to t() is kept as it is (shared/typography.ts).
    partners: typeset(
      new Intl.ListFormat(locale, { type: 'conjunction' }).format(COMPANY.partners),
      locale,
    ),
  }
}
