import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { z } from 'zod'
import { LOCALES, type Locale } from '#shared/locales.ts'
import { FILE_NAMESPACES } from '#shared/namespaces.ts'
import { localeStrings } from '#tests/helpers/locales.ts'

/**
 * The glossary (`locales/glossary.json`, docs/languages.md#languages) names, per concept that tends
 * to drift, the term each language uses and the variants it avoids. Every text of every language
 * (the legal texts too) is checked against it, so a second word for one thing fails here with
 * its key, not in a review.
 */

/** A variant avoided everywhere, or only in the namespaces named. */
const AvoidSchema = z.union([
  z.string().min(1),
  z.strictObject({ variant: z.string().min(1), namespaces: z.array(z.string()).min(1) }),
])

const TermSchema = z.strictObject({
  /** The term to write. */
  use: z.string().min(1),
  /** Phrases that must not appear: whole words in any case, `*` for any further letters. */
  avoid: z.array(AvoidSchema).min(1),
  /** Phrases an avoided variant may be part of, as they name something else. */
  except: z.array(z.string().min(1)).optional(),
})

/** A term for every language of the locale table: a new language brings its terms. */
const LANGUAGES = Object.fromEntries(LOCALES.map((locale) => [locale, TermSchema])) as Record<
  Locale,
  typeof TermSchema
>

const ConceptSchema = z.strictObject({ note: z.string().min(1), ...LANGUAGES })

const GlossarySchema = z.strictObject({
  about: z.string().min(1),
  concepts: z.record(z.string().regex(/^[a-z][A-Za-z]*$/), ConceptSchema),
})

type Term = z.infer<typeof TermSchema>

const RAW = JSON.parse(
  readFileSync(join(import.meta.dirname, '..', '..', 'locales', 'glossary.json'), 'utf8'),
) as unknown
const GLOSSARY = GlossarySchema.parse(RAW)
const CONCEPTS = Object.entries(GLOSSARY.concepts)

/** Not part of a word: a phrase starts and (without a trailing `*`) ends next to one of these. */
const EDGE = String.raw`[\p{L}\p{N}]`

/** `plan* powrotu` → a pattern for "plan powrotu", "planem powrotu", "Planu  powrotu". */
function phrasePattern(phrase: string): RegExp {
  const words = phrase
    .trim()
    .split(/\s+/)
    .map((word) =>
      word
        .split('*')
        .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        .join(String.raw`\p{L}*`),
    )
  const end = phrase.endsWith('*') ? '' : `(?!${EDGE})`
  return new RegExp(`(?<!${EDGE})${words.join(String.raw`\s+`)}${end}`, 'giu')
}

/**
 * What a reader reads of a text: placeholders, markup, addresses and soft hyphens taken out (a
 * placeholder named `email` is no spelling of the word).
 */
function prose(text: string): string {
  return text
    .replace(/\{\{[^}]*\}\}/g, ' ')
    .replace(/<\/?[A-Za-z][\w-]*\s*\/?>/g, ' ')
    .replace(/\S+@\S+|https?:\/\/\S+/g, ' ')
    .replace(/\u00AD/g, '')
}

function variantsOf(term: Term, namespace: string): string[] {
  return term.avoid.flatMap((item) =>
    typeof item === 'string' ? [item] : item.namespaces.includes(namespace) ? [item.variant] : [],
  )
}

/** The avoided variants a text uses, as `"found" (avoid "variant", use "term")`. */
function avoidedIn(text: string, term: Term, namespace: string): string[] {
  let read = prose(text)
  for (const phrase of term.except ?? []) read = read.replace(phrasePattern(phrase), ' ')
  return variantsOf(term, namespace).flatMap((variant) =>
    [...read.matchAll(phrasePattern(variant))].map(
      ([found]) => `"${found}" (avoid "${variant}", use "${term.use}")`,
    ),
  )
}

describe('glossary', () => {
  it('has a note and every language for every concept', () => {
    expect(GlossarySchema.safeParse(RAW).error?.issues ?? []).toEqual([])
    expect(CONCEPTS.length).toBeGreaterThan(0)
    for (const [id, concept] of CONCEPTS) {
      const languages = Object.keys(concept).filter((key) => key !== 'note')
      expect(languages.sort(), id).toEqual([...LOCALES].sort())
    }
  })

  it.each(CONCEPTS)('%s: no avoided variant is a form of the term itself', (_id, concept) => {
    for (const locale of LOCALES) {
      const term = concept[locale]
      const unscoped = term.avoid.filter((item) => typeof item === 'string')
      const found = avoidedIn(term.use, { ...term, avoid: unscoped }, '')
      expect(found, locale).toEqual([])
    }
  })

  it('finds inflected forms by stem, as whole words', () => {
    const finds = (phrase: string, text: string) => phrasePattern(phrase).test(text)
    expect(finds('plan* powrotu', 'mamy Planem  powrotu')).toBe(true)
    expect(finds('jedn* osob* kontaktow*', 'mają Państwo jedną osobę kontaktową')).toBe(true)
    expect(finds('punkt* kontakt*', 'jeden punkt kontaktowy')).toBe(true)
    expect(finds('email*', 'Emails')).toBe(true)
    expect(finds('email*', 'send an e-mail')).toBe(false)
    expect(finds('imprint*', 'imprinting')).toBe(true)
    expect(finds('accesses', 'accessesx')).toBe(false)
    expect(finds('Transfer*', 'Datentransfer')).toBe(false)
    const polish: Term = { use: 'x', avoid: ['transfer*'], except: ['transfer* wychodząc*'] }
    expect(avoidedIn('Rachunki za transfer wychodzący', polish, 'home')).toEqual([])
    expect(avoidedIn('Nieudane transfery', polish, 'home')).toEqual([
      '"transfery" (avoid "transfer*", use "x")',
    ])
    const scoped: Term = { use: 'x', avoid: [{ variant: 'client*', namespaces: ['terms'] }] }
    expect(avoidedIn('other clients', scoped, 'about')).toEqual([])
    expect(avoidedIn('other clients', scoped, 'terms')).toHaveLength(1)
    expect(avoidedIn('an {{email}} at <link>x</link> info@example.com', polish, 'home')).toEqual([])
  })

  const files = LOCALES.flatMap((locale) =>
    FILE_NAMESPACES.map((namespace) => [locale, namespace] as const),
  )
  const strings = new Map(LOCALES.map((locale) => [locale, localeStrings(locale)]))

  it.each(files)('%s/%s uses the glossary’s terms', (locale, namespace) => {
    const hits = (strings.get(locale) ?? [])
      .filter(([key]) => key.startsWith(`${namespace}:`))
      .flatMap(([key, text]) =>
        CONCEPTS.flatMap(([id, concept]) =>
          avoidedIn(text, concept[locale], namespace).map(
            (hit) => `${locale} ${key} [${id}]: ${hit}`,
          ),
        ),
      )
    expect(hits).toEqual([])
  })
})
