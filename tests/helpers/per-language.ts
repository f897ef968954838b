// Checks only a speaker of a language can write (its number words, how its legal texts phrase
// a period, its clock notation) live in tables keyed by language. A language added later has
// no entry until someone who speaks it writes one: the tests iterate the languages of the
// table, and each language without an entry shows as a skipped test whose name says what to
// add, so a new language is green from its first day and never silently unchecked.
import { LOCALES, type Locale } from '#shared/locales.ts'

/** A table of checks written per language; a new language starts without an entry. */
export type PerLanguage<T> = Readonly<Partial<Record<Locale, T>>>

/** The languages the table has an entry for, with the entry, in the locale table's order. */
export function written<T>(table: PerLanguage<T>): [Locale, T][] {
  return LOCALES.flatMap((locale): [Locale, T][] => {
    const entry = table[locale]
    return entry === undefined ? [] : [[locale, entry]]
  })
}

/** The languages the table has no entry for yet: skipped, named with what to add. */
export function unwritten<T>(table: PerLanguage<T>): Locale[] {
  return LOCALES.filter((locale) => table[locale] === undefined)
}
