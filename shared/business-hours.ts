import { COMPANY } from './company.ts'
import { FIGURES } from './figures.ts'

/**
 * The weekday business hours as a language writes them, with the zone's generic name (which
 * covers summer time): "9:00 AM", "6:00 PM", "Central European Time" / "9:00", "18:00",
 * "Mitteleuropäische Zeit". The times are the figures the Managed IT texts state too.
 */
export function businessHours(localeIso: string) {
  const { timeZone } = COMPANY.businessHours
  const time = new Intl.DateTimeFormat(localeIso, {
    hour: 'numeric',
    minute: '2-digit',
    timeZone: 'UTC',
  })
  const zone =
    new Intl.DateTimeFormat(localeIso, { timeZone, timeZoneName: 'longGeneric' })
      .formatToParts(Date.UTC(2024, 0, 1))
      .find((part) => part.type === 'timeZoneName')?.value ?? timeZone
  const { opens, closes } = FIGURES.businessHours
  return { opens: time.format(opens), closes: time.format(closes), zone }
}
