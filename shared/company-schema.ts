import { z } from 'zod'
import type { CompanyFacts } from './company.ts'
import { LOCALES } from './locales.ts'

const text = z.string().trim().min(1)
/** A place by its German name, and by its name in the site's other languages that have one. */
const placeName = z.strictObject({
  ...Object.fromEntries(LOCALES.map((locale) => [locale, text.optional()])),
  de: text,
})
const time = z.string().regex(/^([01]?\d|2[0-3]):[0-5]\d$/, 'a time like 9:00')

/**
 * What an imprint under § 5 DDG needs, checked. The server validates `COMPANY` at start; this
 * lives apart from the facts so the browser bundle does not carry zod for them.
 */
const CompanyFactsSchema = z.strictObject({
  brand: text,
  legalName: text.regex(/PartG( mbB)?$/, 'the name of a Partnerschaftsgesellschaft ends in PartG'),
  legalForm: z.literal('Partnerschaftsgesellschaft'),
  foundingYear: z.number().int().min(1900).max(2100),
  address: z.strictObject({
    street: text,
    postalCode: z.string().regex(/^\d{5}$/, 'a German postal code has five digits'),
    city: text,
    country: z.literal('DE'),
  }),
  register: z.strictObject({
    court: text.regex(/^Amtsgericht /, 'the register court is an Amtsgericht'),
    number: z.string().regex(/^PR \d+( [A-Z])?$/, 'a partnership register number like PR 1234 B'),
  }),
  vatId: z.string().regex(/^DE\d{9}$/, 'a German VAT id: DE and nine digits'),
  partners: z.array(text).min(1),
  contentResponsible: text,
  areaServed: z.array(z.string().regex(/^[A-Z]{2}$/, 'an ISO 3166-1 country code like PL')).min(1),
  email: z.email(),
  phone: z.string().regex(/^\+\d[\d -]{6,}$/, 'an international number like +49 30 1234567-0'),
  businessHours: z.strictObject({
    timeZone: text.refine(
      (zone) => Intl.supportedValuesOf('timeZone').includes(zone) || zone === 'UTC',
      'an IANA time zone like Europe/Berlin (summer time included)',
    ),
    weekdays: z.strictObject({ opens: time, closes: time }),
  }),
  hosting: z.strictObject({ provider: text, location: placeName }),
  mailProvider: text,
  cdn: z.strictObject({
    provider: text,
    location: placeName,
    logRetentionDays: z.number().int().min(1).max(400),
  }),
  supervisoryAuthority: z.strictObject({ name: text, address: text }),
})

/** Throws a readable error naming every wrong fact. */
export function validateCompanyFacts(facts: CompanyFacts): void {
  const result = CompanyFactsSchema.safeParse(facts)
  if (!result.success) {
    const problems = result.error.issues.map(
      (issue) => `  COMPANY.${issue.path.join('.')}: ${issue.message}`,
    )
    throw new Error(`Invalid company facts in shared/company.ts:\n${problems.join('\n')}`)
  }
}
