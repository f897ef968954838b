// The one layout of a locale file: the one Weblate writes for "i18next JSON v4" with its
// "Customize JSON output" add-on at 2 spaces and unsorted keys (translate-toolkit's
// `json.dumps(..., indent=2, ensure_ascii=False, separators=(",", ": "))` and a final
// newline). JavaScript's `JSON.stringify(value, null, 2)` writes the same bytes: keys in file
// order, every array and object expanded, non-ASCII characters (ä, ł, the soft hyphen) as
// themselves. A commit from the translation tool then changes only the lines it translated.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { LOCALES } from '#shared/locales.ts'

export const LOCALES_DIR = join(import.meta.dirname, '..', '..', 'locales')

/** The file's text as the translation tool would write it. */
export function canonicalLocaleJson(text: string): string {
  return `${JSON.stringify(JSON.parse(text), null, 2)}\n`
}

/** Every locale file, `locales/<locale>/<namespace>.json`, as a path. */
export function localeFiles(): string[] {
  return LOCALES.flatMap((locale) =>
    readdirSync(join(LOCALES_DIR, locale))
      .filter((name) => name.endsWith('.json'))
      .sort()
      .map((name) => join(LOCALES_DIR, locale, name)),
  )
}

/** The files whose text differs from its canonical layout. */
export function unformattedLocaleFiles(): string[] {
  return localeFiles().filter((path) => {
    const text = readFileSync(path, 'utf8')
    return canonicalLocaleJson(text) !== text
  })
}
