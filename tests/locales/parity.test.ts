import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { FILE_NAMESPACES } from '#shared/namespaces.ts'
import { LOCALES } from '#shared/locales.ts'
import { SERVICES, serviceNamespace } from '#shared/services.ts'
import {
  flatten,
  markerProblems,
  pluralBase,
  pluralProblems,
} from '#tests/helpers/locale-checks.ts'
import { texts } from '#tests/helpers/locales.ts'

/**
 * English is the source of truth: German and Polish must have exactly its keys, the same
 * placeholders and tags, the plural forms their language needs, and no empty strings.
 */
const LOCALES_DIR = join(import.meta.dirname, '..', '..', 'locales')

/** Keys with plural suffixes collapse to their base: languages need different forms. */
function comparableKeys(entries: Map<string, string>) {
  return [...new Set([...entries.keys()].map((key) => pluralBase(key) ?? key))].sort()
}

/** Lower-case words that are spelled the same in English and German or Polish. */
const SHARED_WORDS = new Set(['optional'])

/**
 * Names and terms the languages share: product and standard names (Kubernetes, SOC 2, .NET),
 * short capitalized words (E-mail, Monitoring). An English sentence has lower-case words and
 * fails this, so it cannot hide in German or Polish.
 */
function isSameInEveryLanguage(text: string) {
  const words = text.split(' ')
  return (
    SHARED_WORDS.has(text) || (words.length <= 3 && words.every((word) => /^[^a-z]/.test(word)))
  )
}

describe('locale files', () => {
  it('exist for every locale and namespace, and nothing else', () => {
    for (const locale of LOCALES) {
      const files = readdirSync(join(LOCALES_DIR, locale)).sort()
      expect(files).toEqual(FILE_NAMESPACES.map((ns) => `${ns}.json`).sort())
    }
  })

  for (const ns of FILE_NAMESPACES) {
    const english = flatten(texts('en', ns))
    for (const locale of LOCALES) {
      describe(`${locale}/${ns}`, () => {
        const entries = flatten(texts(locale, ns))

        it('has exactly the English keys', () => {
          expect(comparableKeys(entries)).toEqual(comparableKeys(english))
        })

        it('has no empty strings', () => {
          const empty = [...entries].filter(([, value]) => value.trim() === '')
          expect(empty).toEqual([])
        })

        it('keeps every placeholder and tag of English', () => {
          expect(markerProblems(english, entries)).toEqual([])
        })

        it('leaves no English text untranslated', () => {
          if (locale === 'en') return
          const leftovers = [...entries].filter(
            ([key, value]) => english.get(key) === value && !isSameInEveryLanguage(value),
          )
          expect(leftovers).toEqual([])
        })

        it('has the plural forms the language needs', () => {
          expect(pluralProblems(entries, locale)).toEqual([])
        })
      })
    }
  }

  // Every service page renders the pattern of the first service's texts (typed from it):
  // another service's file must have all of its keys (and may have more, for its own sections).
  const [pattern] = SERVICES
  const patternKeys = comparableKeys(flatten(texts('en', serviceNamespace(pattern.slug))))
  it.each(SERVICES.map(({ slug }) => slug))('service-%s has the whole service pattern', (slug) => {
    const keys = comparableKeys(flatten(texts('en', serviceNamespace(slug))))
    const structural = (key: string) => key.replace(/\.\d+(\.|$)/g, '.#$1')
    const missing = patternKeys
      .map(structural)
      .filter((key) => !new Set(keys.map(structural)).has(key))
    expect(missing).toEqual([])
  })

  it('uses correct diacritics rather than ASCII stand-ins', () => {
    const german = [...flatten(texts('de', 'home')).values()].join(' ')
    const polish = [...flatten(texts('pl', 'home')).values()].join(' ')
    expect(german).toMatch(/[äöüß]/)
    expect(german).not.toMatch(/\b(fuer|ueber|Loesung|koennen|moechten)\b/)
    expect(polish).toMatch(/[ąćęłńóśźż]/)
  })
})
