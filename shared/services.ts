/**
 * The services: the only place a service is declared. Its page, menu entries, sitemap entry,
 * icon, texts namespace, contact-form option and overview card are all computed from this
 * table; its texts live in `locales/<lng>/service-<slug>.json` (the card shown in menus and
 * overviews under `card`, the page's copy beside it). Order here is order everywhere. Every
 * other thing of the site has its one table too (docs/decisions/one-table-per-thing.md).
 */
type ServiceEntry = {
  /** URL segment under `/services/` and the name of the texts file. */
  slug: string
  /** An icon of `client/components/icons.tsx`, by name. */
  icon: string
  /** The contact form's "service interest" value a visitor picks for this service. */
  interest: string
  /** Whether the home page's short form offers this interest. */
  isOnShortForm: boolean
  /**
   * The page's sections in order, between the hero and the call to action. Sections beyond
   * the shared pattern (benefits, offerings, process, faq) have their texts under the same key.
   */
  sections: readonly ServiceSection[]
}

/** Every service page has these; a service may add its own between them. */
const PATTERN = ['benefits', 'offerings', 'process', 'faq'] as const

type ServiceSection =
  (typeof PATTERN)[number] | 'securityCapabilities' | 'securityFrameworks' | 'supportTiers'

export const SERVICES = [
  {
    slug: 'cloud-infrastructure',
    icon: 'cloud',
    interest: 'cloud',
    isOnShortForm: true,
    sections: PATTERN,
  },
  {
    slug: 'business-modernization',
    icon: 'refresh',
    interest: 'modernization',
    isOnShortForm: true,
    sections: PATTERN,
  },
  {
    slug: 'digital-presence',
    icon: 'monitor',
    interest: 'presence',
    isOnShortForm: false,
    sections: PATTERN,
  },
  {
    slug: 'api-integration',
    icon: 'plug',
    interest: 'api',
    isOnShortForm: false,
    sections: PATTERN,
  },
  {
    slug: 'managed-it',
    icon: 'headset',
    interest: 'managed',
    isOnShortForm: true,
    sections: ['benefits', 'offerings', 'supportTiers', 'process', 'faq'],
  },
  {
    slug: 'security-compliance',
    icon: 'lock',
    interest: 'security',
    isOnShortForm: true,
    sections: [
      'benefits',
      'securityCapabilities',
      'securityFrameworks',
      'offerings',
      'process',
      'faq',
    ],
  },
] as const satisfies readonly ServiceEntry[]

export type Service = (typeof SERVICES)[number]
export type ServiceSlug = Service['slug']

/** The i18next namespace with a service's texts. */
export function serviceNamespace<S extends ServiceSlug>(slug: S): `service-${S}` {
  return `service-${slug}`
}

export type ServiceNamespace = ReturnType<typeof serviceNamespace<ServiceSlug>>

export function servicePath(slug: ServiceSlug): `/services/${ServiceSlug}` {
  return `/services/${slug}`
}

export function service(slug: ServiceSlug): Service {
  const found = SERVICES.find((candidate) => candidate.slug === slug)
  if (!found) throw new Error(`Unknown service: ${slug}`)
  return found
}

export function otherServices(slug: ServiceSlug): Service[] {
  return SERVICES.filter((other) => other.slug !== slug)
}

/** Managed IT's support packages, in display order; `standard` is the recommended one. */
export const SUPPORT_TIERS = [
  { key: 'base', isRecommended: false },
  { key: 'standard', isRecommended: true },
  { key: 'enterprise', isRecommended: false },
] as const

export type SupportTier = (typeof SUPPORT_TIERS)[number]['key']
