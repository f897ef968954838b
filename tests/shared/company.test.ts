import { describe, expect, it } from 'vitest'
import {
  COMPANY,
  companyPlaceholders,
  countryName,
  phoneHref,
  postalAddressLines,
} from '#shared/company.ts'
import { validateCompanyFacts } from '#shared/company-schema.ts'
import { FILE_NAMESPACES } from '#shared/namespaces.ts'
import { LOCALES } from '#shared/locales.ts'
import { TEAM, slugFromName } from '#shared/team.ts'
import { texts } from '#tests/helpers/locales.ts'

describe('company facts', () => {
  it('are complete and valid', () => {
    expect(() => validateCompanyFacts(COMPANY)).not.toThrow()
  })

  it.each([
    ['vatId', { ...COMPANY, vatId: 'DE12345' }],
    ['register.number', { ...COMPANY, register: { ...COMPANY.register, number: 'HRB 1' } }],
    ['address.postalCode', { ...COMPANY, address: { ...COMPANY.address, postalCode: '1011' } }],
    ['email', { ...COMPANY, email: 'not-an-address' }],
    ['legalName', { ...COMPANY, legalName: 'Modernwerk GmbH' }],
  ])('refuse a wrong %s, naming it', (path, facts) => {
    expect(() => validateCompanyFacts(facts as unknown as typeof COMPANY)).toThrow(
      `COMPANY.${path}`,
    )
  })

  it('give placeholders in each language', () => {
    expect(companyPlaceholders('de').partners).toBe('Jonas Weber und Katarzyna Nowak')
    expect(companyPlaceholders('pl').partners).toBe('Jonas Weber i\u00A0Katarzyna Nowak')
    expect(companyPlaceholders('en').registerNumber).toBe(COMPANY.register.number)
    expect(phoneHref('+49 30 1234567-0')).toBe('tel:+493012345670')
  })

  it.each([
    ['en', 'Germany'],
    ['de', 'Deutschland'],
    ['pl', 'Niemcy'],
  ] as const)('name the country in %s, derived from its ISO code', (locale, country) => {
    expect(countryName(locale)).toBe(country)
    expect(companyPlaceholders(locale).country).toBe(country)
    expect(postalAddressLines(locale)).toEqual([
      COMPANY.address.street,
      `${COMPANY.address.postalCode} ${COMPANY.address.city}`,
      country,
    ])
  })
})

describe('team', () => {
  it('has slugs made from the names', () => {
    for (const member of TEAM) expect(member.slug).toBe(slugFromName(member.name))
    expect(slugFromName('Łukasz Żak-Müller')).toBe('lukasz-zak-muller')
  })

  it.each(LOCALES)(
    'name the hosting place as %s writes it, in the facts and every text',
    (locale) => {
      const name = COMPANY.hosting.location[locale] ?? COMPANY.hosting.location.de
      expect(companyPlaceholders(locale).hostingLocation).toBe(name)
      expect(companyPlaceholders(locale).cdnLocation).toBe(
        COMPANY.cdn.location[locale] ?? COMPANY.cdn.location.de,
      )
      // Another language's name ("Frankfurt am Main" in a Polish sentence) is a leftover.
      const all = FILE_NAMESPACES.map((namespace) =>
        JSON.stringify(texts(locale, namespace)),
      ).join()
      for (const foreign of Object.values(COMPANY.hosting.location)) {
        if (!name.includes(foreign)) expect(all).not.toContain(foreign)
      }
    },
  )
})
