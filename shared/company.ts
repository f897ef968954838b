/**
 * Company facts shown in the footer (and later the imprint and contact page). SAMPLE VALUES:
 * the company replaces them here; every page reads them from this one place.
 */
export const COMPANY = {
  brand: 'Modernwerk',
  legalName: 'Modernwerk Weber & Nowak IT-Beratung PartG',
  email: 'kontakt@modernwerk.example',
  phone: '+49 30 1234567-0',
  foundingYear: 2020,
  address: {
    street: 'Musterstraße 12',
    postalCode: '10115',
    city: 'Berlin',
    country: 'DE',
  },
} as const
