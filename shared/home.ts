/** Home page data that is not copy: order, figures, icons, names. Texts live in `locales/`. */

/** The five features; titles and texts are `home:features.<key>`. */
export const FEATURES = [
  { key: 'germanBased', icon: 'server' },
  { key: 'cdnProtected', icon: 'shield' },
  { key: 'oneInterface', icon: 'layers' },
  { key: 'expertTeam', icon: 'users' },
  { key: 'aToZ', icon: 'route' },
] as const

/** Figures of the stats band; labels come from `home:stats.<key>`. */
export const STATS = [
  { key: 'germanServers', value: '100%' },
  { key: 'uptime', value: '99.9%' },
  { key: 'support', value: '24/7' },
  { key: 'experience', value: '15+' },
] as const

/**
 * Testimonials: the quote and role are copy (`home:testimonials.<key>`), the person is data.
 * A doctorate is written the language's way (`home:testimonials.doctor`: "Dr." / "dr").
 */
export const TESTIMONIALS = [
  { key: 'logistics', name: 'Thomas Brandt', initials: 'TB', isDoctor: false },
  { key: 'retail', name: 'Magdalena Zielińska', initials: 'MZ', isDoctor: false },
  { key: 'healthcare', name: 'Sabine Krüger', initials: 'SK', isDoctor: true },
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
