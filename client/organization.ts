import { COMPANY } from '#shared/company.ts'

/** schema.org `Organization` from the company facts (home and about pages). */
export function organizationJsonLd(baseUrl: string): Record<string, unknown> {
  const { address } = COMPANY
  return {
    '@context': 'https://schema.org',
    '@type': 'Organization',
    name: COMPANY.brand,
    legalName: COMPANY.legalName,
    url: baseUrl,
    logo: `${baseUrl}/favicon.svg`,
    email: COMPANY.email,
    telephone: COMPANY.phone,
    foundingDate: String(COMPANY.foundingYear),
    vatID: COMPANY.vatId,
    founder: COMPANY.partners.map((name) => ({ '@type': 'Person', name })),
    address: {
      '@type': 'PostalAddress',
      streetAddress: address.street,
      postalCode: address.postalCode,
      addressLocality: address.city,
      addressCountry: address.country,
    },
  }
}
