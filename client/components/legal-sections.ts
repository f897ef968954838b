import { useTranslation } from '../texts.tsx'
import { BROWSER_STORAGE } from '#shared/browser-storage.ts'
import { businessHours, timeOfDay } from '#shared/business-hours.ts'
import { COMPANY, companyPlaceholders } from '#shared/company.ts'
import { periodOf, type Period } from '#shared/legal.ts'
import { LOCALE_INFO } from '#shared/locales.ts'
import { useApp } from '../app-context.tsx'
import type { LegalSection } from './legal-document.tsx'

type SectionTexts = {
  heading: string
  paragraphs: readonly string[]
  items?: readonly string[]
  closing?: readonly string[]
}

/**
 * A legal page's sections in the order of its list in `shared/legal.ts`, each from its texts
 * (`sections.<id>`: heading, paragraphs, and list items and closing paragraphs where the text
 * has them); `numbered` of them get their number in the heading.
 */
export function legalSections<Id extends string>(
  ids: readonly Id[],
  texts: (id: Id) => SectionTexts,
  numbered = 0,
): LegalSection[] {
  return ids.map((id, index) => ({
    id,
    ...texts(id),
    ...(index < numbered ? { number: index + 1 } : {}),
  }))
}

/** The language cookie's lifetime, from the storage table. */
const COOKIE_DAYS = BROWSER_STORAGE.find((entry) => entry.kind === 'cookie')?.lifetimeDays ?? 0

/**
 * What the legal texts interpolate: the company facts and this deployment's settings
 * (docs/contact.md#retention-and-erasure), periods in the page's language ("15 Minuten", "30 dni"),
 * as a rate ("per minute", "je 15 Minuten", "na godzinę") and after a time ("after one day", "nach
 * 14 Tagen", "po 14 dniach"): a period of one unit reads without its numeral where the language
 * says it so.
 */
export function usePolicyValues() {
  const { t } = useTranslation()
  const { locale, policy } = useApp()
  const inWords =
    (form: 'periods' | 'rates' | 'periodsAfter') =>
    ({ count, unit }: Period) =>
      t(`legal.${form}.${unit}`, { count })
  const period = inWords('periods')
  const rate = inWords('rates')
  const after = inWords('periodsAfter')
  // A limit ops may raise to thousands, grouped as the language groups digits ("1,000").
  const amount = (value: number) => new Intl.NumberFormat(LOCALE_INFO[locale].iso).format(value)
  return {
    ...companyPlaceholders(locale),
    retentionPeriod: period({ count: policy.contactRetentionDays, unit: 'days' }),
    quarantinePeriod: period({ count: policy.quarantineDays, unit: 'days' }),
    rateLimitMax: amount(policy.rateLimit.max),
    tokenRateMax: amount(policy.rateLimit.tokenMax),
    pageRateMax: amount(policy.rateLimit.pageMax),
    pageTokenMax: amount(policy.rateLimit.pageTokenMax),
    personSourceWindow: period(periodOf(policy.alertSourceWindowsMs.person)),
    cspSourceWindow: period(periodOf(policy.alertSourceWindowsMs.cspSelf)),
    rateLimitWindow: period(periodOf(policy.rateLimit.windowMs)),
    rateLimitRate: rate(periodOf(policy.rateLimit.windowMs)),
    errorReportMax: amount(policy.errorReportRateLimit.max),
    errorReportWindow: period(periodOf(policy.errorReportRateLimit.windowMs)),
    errorReportRate: rate(periodOf(policy.errorReportRateLimit.windowMs)),
    queueDiskBound: period(periodOf(policy.queueDiskBoundMs)),
    formTokenMaxAge: period(periodOf(policy.formTokenMaxAgeMs)),
    repeatWindow: period(periodOf(policy.repeatWindowMs)),
    logRetention: after({ count: policy.logRetentionDays, unit: 'days' }),
    statisticsRetention: period({ count: policy.statisticsRetentionDays, unit: 'days' }),
    cdnLogRetention: after({ count: COMPANY.cdn.logRetentionDays, unit: 'days' }),
    cookieLifetime: period({ count: COOKIE_DAYS, unit: 'days' }),
    // The digest's time as the language writes a time of day, in the company's zone by name.
    digestTime: policy.quarantineDigestAt
      ? timeOfDay(LOCALE_INFO[locale].iso, policy.quarantineDigestAt)
      : '',
    zone: businessHours(LOCALE_INFO[locale].iso).zone,
  }
}
