// The checks a translation must pass beyond what i18next-cli checks, as functions of the texts
// so each can be shown failing on a broken example (tests/locales/translator-checks.test.ts).
// Each returns what it found, one line per problem, empty when the texts pass.
import type { Locale } from '#shared/locales.ts'

/** A namespace's texts, flattened: `form.status.rateLimited_one` → its text. */
export type Texts = ReadonlyMap<string, string>

/** A locale file's tree flattened to dotted keys. */
export function flatten(tree: Readonly<Record<string, unknown>>, prefix = ''): Map<string, string> {
  const entries = new Map<string, string>()
  for (const [key, value] of Object.entries(tree)) {
    const path = prefix ? `${prefix}.${key}` : key
    if (typeof value === 'string') entries.set(path, value)
    else for (const [k, v] of flatten(value as Record<string, unknown>, path)) entries.set(k, v)
  }
  return entries
}

/** i18next's plural suffixes, which are CLDR's plural categories. */
const PLURAL_SUFFIXES = ['_zero', '_one', '_two', '_few', '_many', '_other'] as const

/** `days_few` → `days`; null for a key without a plural suffix. */
export function pluralBase(key: string): string | null {
  const suffix = PLURAL_SUFFIXES.find((candidate) => key.endsWith(candidate))
  return suffix ? key.slice(0, -suffix.length) : null
}

/** The plural forms a language needs, as CLDR (through `Intl.PluralRules`) names them. */
function requiredPlurals(locale: Locale): string[] {
  return new Intl.PluralRules(locale).resolvedOptions().pluralCategories.map((c) => `_${c}`)
}

/** Placeholders by name (a language may format a figure its own way) and tags, sorted. */
export function markers(text: string): string[] {
  const placeholders = [...text.matchAll(/\{\{\s*([\w.]+)\s*(?:,[^}]*)?\}\}/g)].map(
    ([, name]) => `{{${name}}}`,
  )
  const tags = text.match(/<\/?[A-Za-z][\w-]*\s*\/?>/g) ?? []
  return [...placeholders, ...tags].sort()
}

/** Every placeholder and tag of the English text, no more and no fewer, in each translation. */
export function markerProblems(english: Texts, translated: Texts): string[] {
  return [...translated].flatMap(([key, text]) => {
    const base = pluralBase(key)
    const source = english.get(key) ?? (base ? english.get(`${base}_other`) : undefined)
    const expected = markers(source ?? '')
    const found = markers(text)
    return expected.join(' ') === found.join(' ')
      ? []
      : [`${key}: has ${found.join(' ') || 'none'}, English has ${expected.join(' ') || 'none'}`]
  })
}

/** Every plural form the language needs, for every text that has plural forms. */
export function pluralProblems(texts: Texts, locale: Locale): string[] {
  const bases = new Set([...texts.keys()].map(pluralBase).filter((base) => base !== null))
  return [...bases].flatMap((base) =>
    requiredPlurals(locale)
      .filter((suffix) => !texts.has(`${base}${suffix}`))
      .map((suffix) => `${base}${suffix} is missing`),
  )
}

/** Limits as `shared/text-limits.ts` declares them: the keys, the length, the place. */
export type TextLimit = {
  readonly keys: readonly string[]
  readonly max: number
  readonly where?: string
}

/** `service-*:cta.button` matches `service-managed-it:cta.button`: `*` is one path segment or one namespace part. */
function keyPattern(pattern: string): RegExp {
  const escaped = pattern.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^.:]+')
  return new RegExp(`^${escaped}$`)
}

/** The limit of a text of a namespace, if its place has one (a plural form by its base). */
export function limitOf(
  ns: string,
  key: string,
  limits: readonly TextLimit[],
): TextLimit | undefined {
  const id = `${ns}:${pluralBase(key) ?? key}`
  return limits.find(({ keys }) => keys.some((pattern) => keyPattern(pattern).test(id)))
}

/** The texts of a namespace longer than their limit (plural forms each count). */
export function lengthProblems(texts: Texts, ns: string, limits: readonly TextLimit[]): string[] {
  return [...texts].flatMap(([key, text]) => {
    const limit = limitOf(ns, key, limits)
    return limit && text.length > limit.max
      ? [
          `${ns}:${key}: ${text.length} characters, at most ${limit.max} in ${limit.where ?? 'its place'}: “${text}”`,
        ]
      : []
  })
}

/** The limits' patterns that match no text: a renamed key would lose its limit unnoticed. */
export function unmatchedLimits(ids: readonly string[], limits: readonly TextLimit[]): string[] {
  return limits
    .flatMap(({ keys }) => keys)
    .filter((pattern) => !ids.some((id) => keyPattern(pattern).test(id)))
}
