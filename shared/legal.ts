/**
 * Legal pages: section order (the keys are also the anchors of the table of contents) and
 * dates. The texts are in `locales/<lng>/{terms,privacy,cookies,imprint}.json`.
 */
export const TERMS_SECTIONS = [
  'scope',
  'services',
  'contract',
  'customerDuties',
  'billing',
  'term',
  'payment',
  'feeChanges',
  'refunds',
  'availability',
  'liability',
  'dataProtection',
  'law',
] as const

/** Listed after the thirteen numbered sections of the terms. */
export const TERMS_PROHIBITED_USES = 'prohibitedUses'

export const PRIVACY_SECTIONS = [
  'controller',
  'overview',
  'hosting',
  'cdn',
  'contactForm',
  'cookies',
  'noTracking',
  'recipients',
  'retention',
  'rights',
  'objection',
  'security',
  'changes',
] as const

export const COOKIE_POLICY_SECTIONS = [
  'whatAreCookies',
  'languageCookie',
  'sessionStorage',
  'noTracking',
  'control',
  'contact',
] as const

export const IMPRINT_SECTIONS = [
  'disputeResolution',
  'liabilityContent',
  'liabilityLinks',
  'copyright',
] as const

/** Sections shown only when the deployment does what they describe. */
export const CONDITIONAL_PRIVACY_SECTIONS: Partial<
  Record<(typeof PRIVACY_SECTIONS)[number], (facts: PolicyFacts) => boolean>
> = { cdn: (facts) => facts.hasCdn }

/**
 * Cookie-policy sections whose text differs with a CDN: with `CDN_URL` set, the page shows
 * this key's text instead of the section's own.
 */
const COOKIE_TEXTS_WITH_CDN = { noTracking: 'sections.noTrackingWithCdn' } as const
export const COOKIE_SECTION_TEXTS_WITH_CDN: Partial<
  Record<
    (typeof COOKIE_POLICY_SECTIONS)[number],
    (typeof COOKIE_TEXTS_WITH_CDN)[keyof typeof COOKIE_TEXTS_WITH_CDN]
  >
> = COOKIE_TEXTS_WITH_CDN

/**
 * What rests on Art. 6 (1) (f) GDPR, as the privacy policy's objection section names it
 * (`privacy:objectionGrounds`): the CDN only when one is configured.
 */
export function objectionGrounds(facts: PolicyFacts) {
  return [
    'serverLogs',
    'contactRateLimit',
    'errorReportRateLimit',
    ...(facts.hasCdn ? (['cdn'] as const) : []),
    'languageCookie',
    'inquiries',
  ] as const
}

/** The processors the privacy policy lists: the CDN only when one is configured. */
export function processors(facts: PolicyFacts): readonly ('hosting' | 'mail' | 'cdn')[] {
  return facts.hasCdn ? ['hosting', 'mail', 'cdn'] : ['hosting', 'mail']
}

/**
 * What the legal pages state that depends on the configuration, so the policy says what this
 * deployment does (README, Retention and erasure).
 */
export type PolicyFacts = {
  /** `CONTACT_RETENTION_DAYS`: an undeliverable contact message is deleted after this. */
  contactRetentionDays: number
  /** `CONTACT_RATE_MAX` submissions per client IP and `CONTACT_RATE_WINDOW` (ms). */
  rateLimit: { max: number; windowMs: number }
  /** `CDN_URL` is set: the policy names the CDN of the company facts as a processor. */
  hasCdn: boolean
  /** `LOG_RETENTION_DAYS`: the platform's log collection deletes the app's log after this. */
  logRetentionDays: number
  /** The error-report beacon's limit per client IP and window (ms), fixed in its route. */
  errorReportRateLimit: { max: number; windowMs: number }
  /**
   * `REDIS_AOF_REWRITE_INTERVAL` (ms): what was deleted leaves the queue's disk within this
   * (Redis's append-only file is rewritten); without Redis, deletions are immediate.
   */
  queueDiskBoundMs: number
}

/** ISO dates, shown in each locale's own format. */
export const LEGAL_UPDATED = {
  privacy: '2024-05-22',
  terms: '2024-05-22',
  cookies: '2024-05-22',
} as const

/** A length of time as the legal texts state it: `{count, unit}` of `common:legal.periods`. */
export type Period = { count: number; unit: 'days' | 'hours' | 'minutes' | 'seconds' }

/** Milliseconds in the largest unit that divides them: 900000 → 15 minutes. */
export function periodOf(ms: number): Period {
  if (ms % 86_400_000 === 0) return { count: ms / 86_400_000, unit: 'days' }
  if (ms % 3_600_000 === 0) return { count: ms / 3_600_000, unit: 'hours' }
  if (ms % 60_000 === 0) return { count: ms / 60_000, unit: 'minutes' }
  return { count: Math.ceil(ms / 1_000), unit: 'seconds' }
}

/** `2024-05-22` → "May 22, 2024" / "22. Mai 2024" / "22 maja 2024" (fixed, not local time). */
export function formatLegalDate(iso: string, localeIso: string): string {
  return new Intl.DateTimeFormat(localeIso, { dateStyle: 'long', timeZone: 'UTC' }).format(
    new Date(`${iso}T00:00:00Z`),
  )
}
