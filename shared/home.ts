import { FIGURES } from './figures.ts'

/** Home page data that is not copy: order, figures, icons, names. Texts live in `locales/`. */

/** The five features; titles and texts are `home:features.<key>`. */
export const FEATURES = [
  { key: 'germanBased', icon: 'server' },
  { key: 'cdnProtected', icon: 'shield' },
  { key: 'oneInterface', icon: 'layers' },
  { key: 'expertTeam', icon: 'users' },
  { key: 'aToZ', icon: 'route' },
] as const

type Stat = {
  key: string
  /** A figure of shared/figures.ts, written by `Intl` in the page's locale… */
  figure?: 'serversInGermany' | 'uptime' | 'experienceYears'
  format?: Intl.NumberFormatOptions
  suffix?: string
  /** …or a name that is the same in every language. */
  text?: string
}

/** Figures of the stats band; labels come from `home:stats.<key>`. */
export const STATS = [
  { key: 'germanServers', figure: 'serversInGermany', format: { style: 'percent' } },
  { key: 'uptime', figure: 'uptime', format: { style: 'percent', maximumFractionDigits: 1 } },
  { key: 'support', text: '24/7' },
  { key: 'experience', figure: 'experienceYears', suffix: '+' },
] as const satisfies readonly Stat[]

/** A stat as `locale` writes it: "99.9%", "99,9 %", "15+". */
export function statValue(stat: Stat, locale: string): string {
  if (!stat.figure) return stat.text ?? ''
  return (
    new Intl.NumberFormat(locale, stat.format).format(FIGURES[stat.figure]) + (stat.suffix ?? '')
  )
}

/**
 * Testimonials: the quote and role are copy (`home:testimonials.<key>`), the person is data.
 * A doctorate is written the language's way (`home:testimonials.doctor`: "Dr." / "dr").
 * The avatar shows the initials of the name.
 */
export const TESTIMONIALS = [
  { key: 'logistics', name: 'Thomas Brandt', isDoctor: false },
  { key: 'retail', name: 'Magdalena Zielińska', isDoctor: false },
  { key: 'healthcare', name: 'Sabine Krüger', isDoctor: true },
] as const

/** A name's initials, as its avatar shows them: "Sabine Krüger" → "SK". */
export function initials(name: string): string {
  return name
    .split(' ')
    .map((part) => part[0])
    .join('')
}

/** Partner banner: neutral text wordmarks. SAMPLE NAMES, edited here by the company. */
export const PARTNERS = [
  'Nordhafen Logistik',
  'Kraków Data Works',
  'Alpenrad Handel',
  'Medicor Praxisnetz',
  'Spreewerk Maschinenbau',
  'Bałtyk Software',
] as const
