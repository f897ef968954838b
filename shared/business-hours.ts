import { COMPANY } from './company.ts'
import { FIGURES } from './figures.ts'

/**
 * The weekday business hours as a language writes them, with the zone's generic name (which
 * covers summer time): "9:00 AM", "6:00 PM", "Central European Time" / "9:00", "18:00",
 * "Mitteleuropäische Zeit". The times are the figures the Managed IT texts state too.
 *
 * A 24-hour language gets two-digit hours ("09:00"), as the German and Polish Managed IT texts
 * ask for (`datetime(hour: 2-digit; …)`; English asks for `hour: numeric`): with
 * `hour: numeric` Firefox writes "09:00" where V8 and WebKit write "9:00", and the page would
 * not hydrate the server's text (docs/testing.md#browser-engines). A 12-hour language keeps "9:00
 * AM", which every engine writes alike (docs/decisions/two-digit-hours-in-24-hour-languages.md).
 */
export function businessHours(localeIso: string) {
  const { timeZone } = COMPANY.businessHours
  const time = timeFormat(localeIso)
  const zone =
    new Intl.DateTimeFormat(localeIso, { timeZone, timeZoneName: 'longGeneric' })
      .formatToParts(Date.UTC(2024, 0, 1))
      .find((part) => part.type === 'timeZoneName')?.value ?? timeZone
  const { opens, closes } = FIGURES.businessHours
  return { opens: time.format(opens), closes: time.format(closes), zone }
}

/** A time of day as the language writes one (two-digit hours on a 24-hour clock, as above). */
function timeFormat(localeIso: string) {
  const { hourCycle } = new Intl.DateTimeFormat(localeIso, { hour: 'numeric' }).resolvedOptions()
  return new Intl.DateTimeFormat(localeIso, {
    hour: hourCycle === 'h23' || hourCycle === 'h24' ? '2-digit' : 'numeric',
    minute: '2-digit',
    timeZone: 'UTC',
  })
}

/** A wall-clock time (`08:00`) as the language writes it: "8:00 AM", "08:00". */
export function timeOfDay(localeIso: string, at: { hour: number; minute: number }): string {
  return timeFormat(localeIso).format(Date.UTC(1970, 0, 1, at.hour, at.minute))
}
