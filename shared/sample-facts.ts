import { COMPANY } from './company.ts'
import { TESTIMONIALS } from './home.ts'
import { TEAM } from './team.ts'

/**
 * The facts this repository ships with that a real company replaces before going live
 * (docs/go-live.md#company-facts-still-samples): each with the sample value as shipped. These
 * are not the company's facts (`shared/company.ts` is): they are what those facts must no longer
 * be. `npm start` in production names the ones still holding their sample in a warning at every
 * start; `npm run go-live` fails on them, and looks for the sample values on a deployed site's
 * legal notice.
 */
/** A fact as shipped: what it is, where it is set, its sample value, and its value now. */
export type SampleFact = {
  fact: string
  where: string
  sample: string
  now: () => string | readonly string[]
}

export const SHIPPED_SAMPLES = [
  {
    fact: 'legal name',
    where: 'COMPANY.legalName',
    sample: 'Modernwerk Weber & Nowak IT-Beratung PartG',
    now: () => COMPANY.legalName,
  },
  {
    fact: 'street',
    where: 'COMPANY.address.street',
    sample: 'Musterstraße 12',
    now: () => COMPANY.address.street,
  },
  {
    fact: 'register number',
    where: 'COMPANY.register.number',
    sample: 'PR 1234 B',
    now: () => COMPANY.register.number,
  },
  {
    fact: 'VAT identification number',
    where: 'COMPANY.vatId',
    sample: 'DE123456789',
    now: () => COMPANY.vatId,
  },
  {
    fact: 'e-mail address',
    where: 'COMPANY.email',
    sample: 'kontakt@modernwerk.example',
    now: () => COMPANY.email,
  },
  {
    fact: 'phone number',
    where: 'COMPANY.phone',
    sample: '+49 30 1234567-0',
    now: () => COMPANY.phone,
  },
  {
    fact: 'hosting provider',
    where: 'COMPANY.hosting.provider',
    sample: 'Beispiel Rechenzentrum GmbH',
    now: () => COMPANY.hosting.provider,
  },
  {
    fact: 'mail provider',
    where: 'COMPANY.mailProvider',
    sample: 'Beispiel Mail GmbH',
    now: () => COMPANY.mailProvider,
  },
  {
    fact: 'CDN provider',
    where: 'COMPANY.cdn.provider',
    sample: 'Beispiel CDN GmbH',
    now: () => COMPANY.cdn.provider,
  },
  {
    fact: 'partner',
    where: 'TEAM (shared/team.ts)',
    sample: 'Jonas Weber',
    now: () => TEAM.map((member) => member.name),
  },
  {
    fact: 'partner',
    where: 'TEAM (shared/team.ts)',
    sample: 'Katarzyna Nowak',
    now: () => TEAM.map((member) => member.name),
  },
  {
    fact: 'client quoted on the home page',
    where: 'TESTIMONIALS (shared/home.ts)',
    sample: 'Thomas Brandt',
    now: () => TESTIMONIALS.map((quote) => quote.name),
  },
  {
    fact: 'client quoted on the home page',
    where: 'TESTIMONIALS (shared/home.ts)',
    sample: 'Magdalena Zielińska',
    now: () => TESTIMONIALS.map((quote) => quote.name),
  },
  {
    fact: 'client quoted on the home page',
    where: 'TESTIMONIALS (shared/home.ts)',
    sample: 'Sabine Krüger',
    now: () => TESTIMONIALS.map((quote) => quote.name),
  },
] as const satisfies readonly SampleFact[]

/** The facts still holding their shipped sample, each as "<fact> (<where>): <sample>". */
export function factsStillSamples(samples: readonly SampleFact[] = SHIPPED_SAMPLES): string[] {
  return samples
    .filter(({ sample, now }) => {
      const value: string | readonly string[] = now()
      return typeof value === 'string' ? value === sample : value.includes(sample)
    })
    .map(({ fact, where, sample }) => `${fact} (${where}): ${sample}`)
}
