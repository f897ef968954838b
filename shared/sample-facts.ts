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

/** The sample names of a table of people: each is a fact of its own, found among `now()`. */
function names(
  fact: string,
  where: string,
  samples: readonly string[],
  now: () => readonly string[],
): SampleFact[] {
  return samples.map((sample) => ({ fact, where, sample, now }))
}

export const SHIPPED_SAMPLES: readonly SampleFact[] = [
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
  ...names('partner', 'TEAM (shared/team.ts)', ['Jonas Weber', 'Katarzyna Nowak'], () =>
    TEAM.map((member) => member.name),
  ),
  ...names(
    'client quoted on the home page',
    'TESTIMONIALS (shared/home.ts)',
    ['Thomas Brandt', 'Magdalena Zielińska', 'Sabine Krüger'],
    () => TESTIMONIALS.map((quote) => quote.name),
  ),
]

/** The facts still holding their shipped sample, each as "<fact> (<where>): <sample>". */
export function factsStillSamples(samples: readonly SampleFact[] = SHIPPED_SAMPLES): string[] {
  return samples
    .filter(({ sample, now }) => {
      const value: string | readonly string[] = now()
      return typeof value === 'string' ? value === sample : value.includes(sample)
    })
    .map(({ fact, where, sample }) => `${fact} (${where}): ${sample}`)
}
