/**
 * The co-founders: the only place a team member is declared. Each has a profile page, a card
 * on the about page and a portrait `client/assets/team/<slug>.svg`; roles, bios and skills
 * are copy in `locales/<lng>/team.json` under `members.<key>`. Slugs are made from the names
 * (`slugFromName`, checked by a test).
 */
export const TEAM = [
  { slug: 'jonas-weber', key: 'jonasWeber', name: 'Jonas Weber', languages: ['de', 'en'] },
  {
    slug: 'katarzyna-nowak',
    key: 'katarzynaNowak',
    name: 'Katarzyna Nowak',
    languages: ['pl', 'de', 'en'],
  },
] as const

export type TeamMember = (typeof TEAM)[number]
export type TeamSlug = TeamMember['slug']

/** `Katarzyna Nowak` → `katarzyna-nowak` (diacritics dropped: `Łukasz Żak` → `lukasz-zak`). */
export function slugFromName(name: string): string {
  return name
    .replace(/ł/g, 'l')
    .replace(/Ł/g, 'L')
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '')
}

export function teamPath(slug: TeamSlug): `/team/${TeamSlug}` {
  return `/team/${slug}`
}

export function teamMember(slug: TeamSlug): TeamMember {
  const member = TEAM.find((candidate) => candidate.slug === slug)
  if (!member) throw new Error(`Unknown team member: ${slug}`)
  return member
}
