import type { Locale } from './locales.ts'

/**
 * Legal pages: section order (the keys are also the anchors of the table of contents) and
 * dates. The texts are in `locales/<lng>/{terms,privacy,cookies,imprint,accessibility}.json`.
 * The terms make no statement under the Data Act until counsel has answered whether the
 * subscriptions fall under it (docs/decisions/the-data-act-is-a-question-for-counsel.md).
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
  'spamQuarantine',
  'spamDigest',
  'spamDiscarded',
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

/** The accessibility statement's sections (`accessibility:sections.<id>`). */
export const ACCESSIBILITY_SECTIONS = ['standard', 'testing', 'limits', 'feedback'] as const

/**
 * The day the accessibility statement was last checked against the site and its tests
 * (docs/testing.md): a change to what the tests check, or to the statement, sets it anew.
 */
export const ACCESSIBILITY_REVIEWED = '2026-11-29'

export const IMPRINT_SECTIONS = [
  'disputeResolution',
  'liabilityContent',
  'liabilityLinks',
  'copyright',
] as const

/** Sections shown only when the deployment does what they describe. */
export const CONDITIONAL_PRIVACY_SECTIONS: Partial<
  Record<(typeof PRIVACY_SECTIONS)[number], (facts: PolicyFacts) => boolean>
> = {
  cdn: (facts) => facts.hasCdn,
  spamQuarantine: (facts) => facts.quarantineDays > 0,
  // The daily digest that shows held-back messages to a person, unless it is off.
  spamDigest: (facts) => facts.quarantineDays > 0 && facts.quarantineDigestAt !== null,
  // Without a quarantine, what the spam defence drops is gone: the policy says so instead.
  spamDiscarded: (facts) => facts.quarantineDays === 0,
}

/**
 * Cookie-policy sections whose text differs with a CDN: with `CDN_URL` set, the page shows
 * this key's text instead of the section's own, as i18next's `context` does not reach the
 * leaves of an object returned with `returnObjects`
 * (docs/decisions/lists-in-legal-texts-come-from-tables.md).
 */
export const COOKIE_SECTION_TEXTS_WITH_CDN: Partial<
  Record<(typeof COOKIE_POLICY_SECTIONS)[number], 'sections.noTrackingWithCdn'>
> = { noTracking: 'sections.noTrackingWithCdn' }

/**
 * What rests on Art. 6(1)(f) GDPR, as the privacy policy's objection section names it
 * (`privacy:objectionGrounds`): the CDN only when one is configured. The page joins them with
 * `Intl.ListFormat` (docs/decisions/lists-in-legal-texts-come-from-tables.md).
 */
export function objectionGrounds(facts: PolicyFacts) {
  return [
    'serverLogs',
    'pageStatistics',
    'contactRateLimit',
    'spamProtection',
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
 * deployment does (docs/contact.md#retention-and-erasure).
 */
export type PolicyFacts = {
  /** `CONTACT_RETENTION_DAYS`: an undeliverable contact message is deleted after this. */
  contactRetentionDays: number
  /**
   * `CONTACT_RATE_MAX` submissions per client IP and `CONTACT_RATE_WINDOW` (ms), the form
   * tokens (`GET /api/contact/token`) given out per client IP in the same window, and the
   * messages that rely on a page's token alone (the form without JavaScript) per client IP in
   * that window and per page token.
   */
  rateLimit: {
    max: number
    tokenMax: number
    pageMax: number
    pageTokenMax: number
    windowMs: number
  }
  /**
   * How long a keyed checksum of a client's address is held in memory for the alerts that count
   * different sources (server/lib/distinct-sources.ts): reports of the site's own files (CSP),
   * and posts held back for a reason a person can cause (ms).
   */
  alertSourceWindowsMs: { cspSelf: number; person: number }
  /** `CDN_URL` is set: the policy names the CDN of the company facts as a processor. */
  hasCdn: boolean
  /** `LOG_RETENTION_DAYS`: the platform's log collection deletes the app's log after this. */
  logRetentionDays: number
  /**
   * `STATISTICS_RETENTION_DAYS`: how long the monitoring system keeps the page statistics and
   * lead counters at most (its retention stays within this;
   * docs/insight.md#insight-which-pages-bring-leads).
   */
  statisticsRetentionDays: number
  /** The error-report beacon's limit per client IP and window (ms), fixed in its route. */
  errorReportRateLimit: { max: number; windowMs: number }
  /**
   * `REDIS_AOF_REWRITE_INTERVAL` (ms): what was deleted leaves the queue's disk within this
   * (Redis's append-only file is rewritten); without Redis, deletions are immediate.
   */
  queueDiskBoundMs: number
  /**
   * `CONTACT_TOKEN_MAX_AGE` (ms): how long a form's token lasts, and how long the spam defence
   * remembers a used one (with a keyed checksum of the message, for the form without
   * JavaScript).
   */
  formTokenMaxAgeMs: number
  /** How long a keyed checksum of each message's text is kept to mark one sent again. */
  repeatWindowMs: number
  /**
   * `QUARANTINE_DAYS`: how long a message the spam defence held back is kept for an operator
   * to check (docs/contact.md#quarantine); 0: none is kept, and the policy says nothing of it.
   */
  quarantineDays: number
  /**
   * `QUARANTINE_DIGEST_AT`: when the daily digest of held-back messages goes to the company's
   * inbox (Europe/Berlin); null when it is off (docs/contact.md#quarantine).
   */
  quarantineDigestAt: { hour: number; minute: number } | null
  /**
   * `POLICY_SETTINGS_SINCE`: the day the deployment's values of the stated settings took
   * effect, when they are not the defaults the history's hashes cover; null otherwise.
   */
  settingsSince: string | null
}

export { LEGAL_TEXTS, type DatedLegalText, type LegalText } from './legal-texts.ts'
import type { DatedLegalText } from './legal-texts.ts'

/**
 * The configurations a version's hashes are recorded for: the defaults, with `CDN_URL`, and
 * with `QUARANTINE_DAYS=0` (the privacy policy then says held-back messages are not kept). A
 * version before 2026-11-29 has the first two only.
 */
export type LegalConfiguration = 'default' | 'cdn' | 'noQuarantine'

/**
 * One published version of a legal text: the day it took effect (ISO) and, from 2026-11-26
 * on, a hash of its rendered text per configuration and locale. The page names what changed
 * from its texts (`<namespace>:history.<date>`). A language added later has hashes only from
 * the version that was the latest when its translation came: older versions never existed in it.
 */
export type LegalVersion = {
  date: string
  hashes?: Readonly<Partial<Record<LegalConfiguration, Readonly<Partial<Record<Locale, string>>>>>>
}

/**
 * The dated history of each legal text, oldest first; the page shows the newest date and the
 * list. A change to a text's rendered words (texts, facts, code) makes
 * `tests/server/routes/legal-history.test.ts` fail until a new version is added here with the
 * hashes the test prints (docs/languages.md#legal-texts-that-state-what-the-code-does;
 * docs/decisions/legal-texts-dated-by-their-versions.md).
 */
export const LEGAL_HISTORY: Readonly<Record<DatedLegalText, readonly LegalVersion[]>> = {
  privacy: [
    // The first publication's date is the specification's, like the other texts'
    // (docs/decisions/texts-the-specification-fixes.md).
    { date: '2024-05-22' },
    {
      date: '2026-11-26',
      hashes: {
        default: { en: '032b44bc034920c1', de: '387234a42db1b652', pl: '91f65fa8df6bc789' },
        cdn: { en: '02ffa07f4d6fb74b', de: '0c7e8dd36d064cff', pl: '9594abdbf94871c2' },
      },
    },
    {
      date: '2026-11-27',
      hashes: {
        default: { en: 'c3be440ef0795932', de: 'cf62012a599b2958', pl: '001d6511b4452b65' },
        cdn: { en: 'bbc0760989720547', de: '2f8a04d90b99102c', pl: '855b722ed25c21e5' },
      },
    },
    {
      date: '2026-11-28',
      hashes: {
        default: { en: '925845a04436d053', de: 'b22f5a821a475736', pl: 'bb5236de033d74a3' },
        cdn: { en: 'd165f82128e8dc86', de: '52d9a08cd77f0988', pl: '6560c398f3acc955' },
      },
    },
    {
      date: '2026-11-29',
      hashes: {
        default: { en: 'b067a2492bc7a99e', de: 'e10e772fd038cc45', pl: '1e322ffbc738bee1' },
        cdn: { en: '2208af9dd79fa760', de: '5cb8b30c72ef1d78', pl: 'b56a5d87567c5fe9' },
        noQuarantine: { en: '6b911ab0ff54bb01', de: '010479eead2acb66', pl: '332f3cbd7ccdfd5c' },
      },
    },
    {
      date: '2026-11-30',
      hashes: {
        default: { en: 'cb921dd49bc9e0fe', de: 'e10e772fd038cc45', pl: '1e322ffbc738bee1' },
        cdn: { en: 'e7d70cead311a300', de: '5cb8b30c72ef1d78', pl: 'b56a5d87567c5fe9' },
        noQuarantine: { en: '5b6b7fd6a1bdf4f1', de: '010479eead2acb66', pl: '332f3cbd7ccdfd5c' },
      },
    },
  ],
  terms: [
    { date: '2024-05-22' },
    {
      date: '2026-11-26',
      hashes: {
        default: { en: 'c5b2b17dccd0b9a8', de: 'b084b2a35da58b22', pl: '5aa66e06bc1f528c' },
        cdn: { en: 'c5b2b17dccd0b9a8', de: 'b084b2a35da58b22', pl: '5aa66e06bc1f528c' },
      },
    },
    {
      date: '2026-11-27',
      hashes: {
        default: { en: 'a660610a6d04122c', de: 'b084b2a35da58b22', pl: '5aa66e06bc1f528c' },
        cdn: { en: 'a660610a6d04122c', de: 'b084b2a35da58b22', pl: '5aa66e06bc1f528c' },
      },
    },
    {
      date: '2026-11-28',
      hashes: {
        default: { en: '3af63f194eaab681', de: '25d39c00bedd1344', pl: 'c6d4c2b8594bb738' },
        cdn: { en: '3af63f194eaab681', de: '25d39c00bedd1344', pl: 'c6d4c2b8594bb738' },
      },
    },
    {
      date: '2026-11-29',
      hashes: {
        default: { en: '83b55aca5d3bbdcf', de: '25d39c00bedd1344', pl: '8879ed42085faddf' },
        cdn: { en: '83b55aca5d3bbdcf', de: '25d39c00bedd1344', pl: '8879ed42085faddf' },
        noQuarantine: { en: '83b55aca5d3bbdcf', de: '25d39c00bedd1344', pl: '8879ed42085faddf' },
      },
    },
  ],
  cookies: [
    { date: '2024-05-22' },
    {
      date: '2026-11-26',
      hashes: {
        default: { en: '5a733164c8f7b16a', de: 'bee6870820955846', pl: 'ffad61ca2c49c989' },
        cdn: { en: 'c529c9a8a1ee51c2', de: '834a2427b0d48d3e', pl: 'bc6f56f4b4f6264b' },
      },
    },
    {
      date: '2026-11-27',
      hashes: {
        default: { en: '5a733164c8f7b16a', de: 'bee6870820955846', pl: 'ffad61ca2c49c989' },
        cdn: { en: 'c529c9a8a1ee51c2', de: '834a2427b0d48d3e', pl: '399fe35e9f9e1836' },
      },
    },
    {
      date: '2026-11-28',
      hashes: {
        default: { en: '9d936fe87358e56d', de: 'ea5d7506081f061e', pl: '62da3acd98a40b6d' },
        cdn: { en: '844ddb1cffda61fc', de: '943077be480a7429', pl: '095f23f1fc50d3bb' },
      },
    },
    {
      date: '2026-11-29',
      hashes: {
        default: { en: 'a6dfeb3197f77164', de: '3d906acd1107e9a2', pl: '39d6d601ee71d769' },
        cdn: { en: '5390c6cb808afe4f', de: 'b6a364faa484e24a', pl: 'd1ee6e209cf64c1d' },
        noQuarantine: { en: 'a6dfeb3197f77164', de: '3d906acd1107e9a2', pl: '39d6d601ee71d769' },
      },
    },
  ],
}

/** A date a page lists: a version of the text, or the day this site's stated settings changed. */
export type ListedVersion = { date: string; kind: 'text' | 'settings' }

/** Whether a text states this deployment's settings: the privacy policy, and the cookie policy's CDN. */
const STATES_SETTINGS: Record<DatedLegalText, (facts: PolicyFacts) => boolean> = {
  privacy: () => true,
  cookies: (facts) => facts.hasCdn,
  terms: () => false,
}

/**
 * The versions a page lists, newest first: the text's history, and for a text that states
 * the deployment's settings the day they took effect, when that is later.
 */
export function legalVersions(text: DatedLegalText, facts: PolicyFacts): ListedVersion[] {
  const versions = LEGAL_HISTORY[text].map(({ date }): ListedVersion => ({ date, kind: 'text' }))
  const latest = versions.at(-1)?.date ?? ''
  if (
    STATES_SETTINGS[text](facts) &&
    facts.settingsSince !== null &&
    facts.settingsSince > latest
  ) {
    versions.push({ date: facts.settingsSince, kind: 'settings' })
  }
  return versions.reverse()
}

/**
 * The day (ISO) an instant falls on in Germany, where the legal texts go online: the day a
 * dated version or `POLICY_SETTINGS_SINCE` names, not a UTC day.
 */
export function legalDay(instant: Date = new Date()): string {
  return new Intl.DateTimeFormat('en-CA', { timeZone: 'Europe/Berlin' }).format(instant)
}

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
