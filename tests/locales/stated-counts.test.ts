import { describe, expect, it } from 'vitest'
import { LEGAL_HISTORY, type DatedLegalText } from '#shared/legal.ts'
import { LOCALE_INFO, LOCALES, type Locale } from '#shared/locales.ts'
import { SERVICES, SUPPORT_TIERS, serviceNamespace } from '#shared/services.ts'
import { TEAM } from '#shared/team.ts'
import { get, texts, type Json } from '#tests/helpers/locales.ts'
import { type PerLanguage, unwritten, written } from '#tests/helpers/per-language.ts'

/**
 * Sentences that state how many of something a table holds ("Six services, one team …") are
 * written out in words, which no formatter can produce. Each is listed here with the count it
 * states, so a service added to `SERVICES` (or a capability to its page) fails this test until
 * the sentences say the new number in every language.
 */
const NUMBER_WORDS: PerLanguage<readonly string[]> = {
  en: ['zero', 'one', 'two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten'],
  de: ['null', 'ein', 'zwei', 'drei', 'vier', 'fünf', 'sechs', 'sieben', 'acht', 'neun', 'zehn'],
  pl: [
    'zero',
    'jeden',
    'dwa',
    'trzy',
    'cztery',
    'pięć',
    'sześć',
    'siedem',
    'osiem',
    'dziewięć',
    'dziesięć',
  ],
}

/** How many entries a list or keyed table in a page's texts has, in one language. */
function entries(namespace: string, path: string): (locale: Locale) => number {
  return (locale) => Object.keys(get(texts(locale, namespace), path) as Record<string, Json>).length
}

/** Other words that state a count: collective numerals ("beiden", "dwoje"). */
const COUNT_WORDS: PerLanguage<Readonly<Record<string, number>>> = {
  en: { both: 2 },
  de: { beide: 2, beiden: 2 },
  pl: { dwoje: 2, dwóch: 2, troje: 3, trzech: 3 },
}

function countOf(word: string, numberWords: readonly string[], locale: Locale) {
  const index = numberWords.indexOf(word)
  return index >= 0 ? index : COUNT_WORDS[locale]?.[word]
}

const STATED_COUNTS: { key: string; count: (locale: Locale) => number }[] = [
  { key: 'services:hero.title', count: () => SERVICES.length },
  { key: 'home:services.intro', count: () => SERVICES.length },
  {
    key: `${serviceNamespace('security-compliance')}:capabilities.intro`,
    count: entries(serviceNamespace('security-compliance'), 'capabilities.items'),
  },
  { key: 'about:meta.description', count: () => TEAM.length },
  { key: 'about:team.intro', count: () => TEAM.length },
  { key: 'about:values.intro', count: entries('about', 'values.items') },
  { key: `${serviceNamespace('managed-it')}:card.highlights.2`, count: () => SUPPORT_TIERS.length },
  { key: `${serviceNamespace('managed-it')}:tiers.intro`, count: () => SUPPORT_TIERS.length },
  {
    key: `${serviceNamespace('digital-presence')}:offerings.intro`,
    count: entries(serviceNamespace('digital-presence'), 'offerings.groups'),
  },
]

function wordsOf(text: string): string[] {
  return text.toLocaleLowerCase().split(/[^\p{L}]+/u)
}

describe('sentences that state a count say the count of the table', () => {
  for (const [locale, numberWords] of written(NUMBER_WORDS)) {
    it.each(STATED_COUNTS)(`${locale}: $key`, ({ key, count }) => {
      const [namespace = '', path = ''] = key.split(':')
      const text = get(texts(locale, namespace), path)
      expect(typeof text).toBe('string')
      const stated = wordsOf(String(text))
        .map((word) => countOf(word, numberWords, locale))
        .filter((number) => number !== undefined)
      // The first number word is the count ("Six services, one team …").
      expect(stated[0]).toBe(count(locale))
    })
  }
  it.skip.each(unwritten(NUMBER_WORDS))('%s: add its number words to NUMBER_WORDS', () => {})
})

/**
 * The legal texts speak of "the languages of this website" and give a language code as an
 * example: a sentence naming every language would have to change, and with it every legal
 * text's dated version in every language, when a language is added.
 */
describe('the legal texts do not list the site’s languages', () => {
  const DATED_LEGAL_TEXTS = Object.keys(LEGAL_HISTORY) as DatedLegalText[]
  const strings = (value: unknown): string[] =>
    typeof value === 'string'
      ? [value]
      : typeof value === 'object' && value !== null
        ? Object.values(value).flatMap(strings)
        : []

  for (const locale of LOCALES) {
    it.each(DATED_LEGAL_TEXTS)(`${locale}: %s`, (namespace) => {
      const names = new Intl.DisplayNames([LOCALE_INFO[locale].iso], { type: 'language' })
      for (const text of strings(texts(locale, namespace))) {
        const lower = text.toLocaleLowerCase(locale)
        // "German", "deutscher", "niemieckim": the name as a word or the stem of its adjective.
        const namesAll = LOCALES.every((language) =>
          lower.includes(names.of(language)?.toLocaleLowerCase(locale) ?? language),
        )
        const codesAll = [...text.matchAll(/\(([^)]*)\)/g)].some(([, inside = '']) =>
          LOCALES.every((code) => new RegExp(`\\b${code}\\b`).test(inside)),
        )
        expect(namesAll || codesAll, text).toBe(false)
      }
    })
  }
})
