/**
 * Data of the sections only some service pages have (named in their `sections`, see
 * services.ts); the texts are under the same keys in that service's texts.
 */

/** Security & compliance: its capabilities and frameworks, in display order. */
export const SECURITY_CAPABILITIES = [
  { key: 'threatProtection', icon: 'shield' },
  { key: 'accessControl', icon: 'key' },
  { key: 'complianceAuditing', icon: 'clipboardCheck' },
  { key: 'securityTraining', icon: 'graduation' },
  { key: 'incidentResponse', icon: 'alert' },
  { key: 'dataProtection', icon: 'lock' },
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
