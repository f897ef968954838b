import { describe, expect, it } from 'vitest'
import { localeStrings } from '#tests/helpers/locales.ts'

/**
 * The German texts address the reader as "Sie" and name people as German business writing
 * does (docs/languages.md#languages;
 * docs/decisions/german-names-people-as-business-writing-does.md): a neutral word where it is
 * the established one ("Mitarbeitende", "Fachleute", "Team"), otherwise the generic masculine
 * ("Kunden", "Ansprechpartner"), and never a gender sign, which screen readers read out and
 * German orthography does not include.
 */
const GERMAN = localeStrings('de')

/** "du" and its forms, as a whole word; capitalised "Sie" forms are what the site uses. */
const INFORMAL = /\b(du|dich|dir|dein|deine|deinen|deinem|deiner|deines|euch|euer|eure[mnrs]?)\b/i
/** Genderstern, colon, underscore, slash and Binnen-I: "Kund*innen", "Nutzer:in", "KundInnen". */
const GENDER_SIGN = /\p{L}(\*|:|_|\/-?)in(nen)?\b|\p{Ll}In(nen)?\b/u
/** Names spelt with a capital "In" of their own, which are no Binnen-I. */
const NAMES_WITH_CAPITAL_IN = /\bLinkedIn\b/g

/** Text without placeholders, addresses and markup, where a colon means something else. */
function prose(text: string): string {
  return text
    .replace(/\{\{[^}]*\}\}/g, ' ')
    .replace(/<\/?[A-Za-z][\w-]*\s*\/?>/g, ' ')
    .replace(/\S+@\S+|https?:\/\/\S+/g, ' ')
    .replace(NAMES_WITH_CAPITAL_IN, ' ')
}

describe('German style', () => {
  it.each(GERMAN)('%s says "Sie" and uses no gender sign', (_key, text) => {
    expect(prose(text)).not.toMatch(INFORMAL)
    expect(prose(text)).not.toMatch(GENDER_SIGN)
  })

  it.each([
    'Wenn du Fragen hast, schreib uns.',
    'Für alle Kund*innen',
    'Jede Nutzer:in',
    'Unsere Mitarbeiter_innen',
    'Für KundInnen',
    'Ansprechpartner/-innen',
  ])('would find "%s"', (text) => {
    expect(INFORMAL.test(prose(text)) || GENDER_SIGN.test(prose(text))).toBe(true)
  })
})
