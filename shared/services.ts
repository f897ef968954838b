import type { ServiceInterest } from './contact-fields.ts'
import { SERVICE_SLUGS, type ServiceSlug } from './routes.ts'

/**
 * Service pages: what is data rather than copy. Texts live in `locales/<lng>/service-<slug>.json`
 * (one namespace per page, so a page embeds only its own texts) and `services.json` (overview).
 */
export const SERVICE_NAMESPACES = {
  'cloud-infrastructure': 'service-cloud-infrastructure',
  'business-modernization': 'service-business-modernization',
  'digital-presence': 'service-digital-presence',
  'api-integration': 'service-api-integration',
  'managed-it': 'service-managed-it',
  'security-compliance': 'service-security-compliance',
} as const satisfies Record<ServiceSlug, string>

export type ServiceNamespace = (typeof SERVICE_NAMESPACES)[ServiceSlug]

/** The contact form's service interest that each page preselects. */
export const SERVICE_INTERESTS_BY_SLUG = {
  'cloud-infrastructure': 'cloud',
  'business-modernization': 'modernization',
  'digital-presence': 'presence',
  'api-integration': 'api',
  'managed-it': 'managed',
  'security-compliance': 'security',
} as const satisfies Record<ServiceSlug, ServiceInterest>

export const SECURITY_CAPABILITIES = [
  'threatProtection',
  'accessControl',
  'complianceAuditing',
  'securityTraining',
  'incidentResponse',
  'dataProtection',
] as const

export const SECURITY_FRAMEWORKS = [
  'hipaa',
  'pciDss',
  'gdpr',
  'ccpa',
  'soc2',
  'iso27001',
  'nist',
  'cisControls',
  'csaStar',
] as const

/** Managed IT's support packages, in display order; `standard` is the recommended one. */
export const SUPPORT_TIERS = [
  { key: 'base', isRecommended: false },
  { key: 'standard', isRecommended: true },
  { key: 'enterprise', isRecommended: false },
] as const

export type SupportTier = (typeof SUPPORT_TIERS)[number]['key']

/** Query parameters the contact page reads to preselect the form. */
export const CONTACT_QUERY = { service: 'service', plan: 'plan' } as const

/** The contact page with a service interest (and a support package) preselected. */
export function contactPath(interest: ServiceInterest, plan?: SupportTier): string {
  const query = new URLSearchParams({ [CONTACT_QUERY.service]: interest })
  if (plan) query.set(CONTACT_QUERY.plan, plan)
  return `/contact?${query.toString()}`
}

export function otherServices(slug: ServiceSlug): ServiceSlug[] {
  return SERVICE_SLUGS.filter((other) => other !== slug)
}
