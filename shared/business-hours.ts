import { COMPANY } from './company.ts'

/**
 * The weekday business hours as a language writes them, with the zone's generic name (which
 * covers summer time): "9:00 AM", "6:00 PM", "Central European Time" / "09:00", "18:00",
 * "Mitteleuropäische Zeit".
 */
export function businessHours(localeIso: string) {
  const { timeZone, weekdays } = COMPANY.businessHours
  const time = new Intl.DateTimeFormat(localeIso, {
    hour: 'numeric',
    minute: '2-digit',
    timeZone: 'UTC',
  })
  const at = (clock: string) => {
    const [hours = 0, minutes = 0] = clock.split(':').map(Number)
    return time.format(Date.UTC(2024, 0, 1, hours, minutes))
  }
  const zone =
    new Intl.DateTimeFormat(localeIso, { timeZone, timeZoneName: 'longGeneric' })
      .formatToParts(Date.UTC(2024, 0, 1))
      .find((part) => part.type === 'timeZoneName')?.value ?? timeZone
  return { opens: at(weekdays.opens), closes: at(weekdays.closes), zone }
}
