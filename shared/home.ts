import type { ServiceSlug } from './routes.ts'
import { SERVICE_SLUGS } from './routes.ts'

/** Home page data that is not copy: order, figures, icons, names. Texts live in `locales/`. */

export const FEATURES = [
  'germanBased',
  'cdnProtected',
  'oneInterface',
  'expertTeam',
  'aToZ',
] as const
export type Feature = (typeof FEATURES)[number]

/** Figures of the stats band; labels come from `home:stats.<key>`. */
export const STATS = [
  { key: 'germanServers', value: '100%' },
  { key: 'uptime', value: '99.9%' },
  { key: 'support', value: '24/7' },
  { key: 'experience', value: '15+' },
] as const

export const HOME_SERVICES: readonly ServiceSlug[] = SERVICE_SLUGS

/** Testimonials: the quote and role are copy (`home:testimonials.<key>`), the person is data. */
export const TESTIMONIALS = [
  { key: 'logistics', name: 'Thomas Brandt', initials: 'TB' },
  { key: 'retail', name: 'Magdalena Zielińska', initials: 'MZ' },
  { key: 'healthcare', name: 'Dr. Sabine Krüger', initials: 'SK' },
] as const

/** Partner banner: neutral text wordmarks. SAMPLE NAMES, edited here by the company. */
export const PARTNERS = [
  'Nordhafen Logistik',
  'Kraków Data Works',
  'Alpenrad Handel',
  'Medicor Praxisnetz',
  'Spreewerk Maschinenbau',
  'Bałtyk Software',
] as const
