import { COMPANY } from './company.ts'

/** `9:00` → a date whose UTC clock shows it, for `datetime(…; timeZone: UTC)`. */
function clockTime(clock: string): Date {
  const [hours = 0, minutes = 0] = clock.split(':').map(Number)
  return new Date(Date.UTC(2024, 0, 1, hours, minutes))
}

/**
 * Every figure the texts state as a fact: the one place to change it. The texts name them as
 * i18next placeholders with one of its built-in `Intl` formats, so each locale writes them its
 * own way (`{{uptime, number(style: percent; maximumFractionDigits: 1)}}` is "99.9%", "99,9 %"
 * and "99,9%"). Percentages are shares (0.999), amounts plain numbers, dates UTC dates.
 * A figure's unit and the noun after it are copy: after changing one, read the texts that name
 * it (`grep -rn uptime locales/`), as Polish and German nouns follow the number.
 * Numbers that are names stay in the texts: ISO 27001, NIS2, Art. 28, § 25, WCAG 2.2, 24/7.
 */
export const FIGURES = {
  /** The free initial consultation, in minutes. */
  consultationMinutes: 30,
  /** Availability the hosting guarantees (home stats, cloud page). */
  uptime: 0.999,
  /** Share of the servers we run that stand in German data centres (home stats). */
  serversInGermany: 1,
  /** The team's years of experience, shown as "15+" (home stats). */
  experienceYears: 15,
  /** Business modernization: weeks of the assessment, and between two releases. */
  assessmentWeeks: { min: 2, max: 4 },
  releaseWeeks: { min: 2, max: 4 },
  /** Largest Contentful Paint the sites we build reach, in seconds (Google's "good"). */
  contentPaintSeconds: 2.5,
  /** Managed IT: the company sizes it is made for, in employees. */
  managedItEmployees: { min: 10, max: 500 },
  /**
   * Managed IT: the base package's support hours are the business hours, as clock times
   * (UTC dates that carry the local time: the texts name the zone, German time).
   */
  businessHours: {
    opens: clockTime(COMPANY.businessHours.weekdays.opens),
    closes: clockTime(COMPANY.businessHours.weekdays.closes),
  },
  /** Managed IT: response times of the three support packages. */
  response: { baseHours: 4, standardHours: 1, enterpriseMinutes: 15 },
  /** A client's result the home page quotes (the logistics testimonial). */
  dispatchCostSaving: 0.4,

  // Laws and standards as the texts explain them.
  /** GDPR: fines (Art. 83(5)) and the deadline to report a breach (Art. 33). */
  gdpr: { fineEuros: 20_000_000, fineTurnover: 0.04, reportingHours: 72 },
  /** NIS2: the early warning deadline, and who is covered (size and sectors). */
  nis2: { reportingHours: 24, employees: 50, turnoverEuros: 10_000_000, sectors: 18 },
  /** CIS Critical Security Controls v8: its number of controls. */
  cisControls: 18,
  /** BFSG / European Accessibility Act: in force since, and the microenterprise exemption. */
  bfsg: { since: new Date(Date.UTC(2025, 5, 28)), employees: 10, turnoverEuros: 2_000_000 },
  /** § 38 BDSG: a data protection officer is required from this many people. */
  dataProtectionOfficerPersons: 20,

  // This website and its contracts.
  /** Bits of an IPv6 address dropped before it is logged (server/lib/ip-addresses.ts). */
  ipv6DroppedBits: 80,
  /** Terms: notice for monthly plans, days in default before suspension, export period. */
  noticeDays: 14,
  suspensionDays: 14,
  exportDays: 30,
  /** Terms: the flat fee for late payment, in euros (§ 288(5) BGB). */
  lateFeeEuros: 40,
} as const
