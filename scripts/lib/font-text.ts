// The characters the site can show, for the font subset (scripts/subset-fonts.ts) and for
// the test that the subset still covers every text (tests/shared/fonts.test.ts).
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { LOCALE_INFO } from '#shared/locales.ts'

const ROOT = join(import.meta.dirname, '..', '..')

/** Every letter of every language the site speaks, used in the copy or not, so new text never falls back. */
const LETTERS = Object.values(LOCALE_INFO)
  .map((info) => info.typesetting.letters)
  .join('')

function filesIn(dir: string, extension: RegExp): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((name) => extension.test(name))
    .map((name) => join(dir, name))
}

/**
 * Printable ASCII, Latin-1 (German and the usual symbols), each language's letters, and whatever
 * else the locale files and the shared data (company facts, names, services) contain.
 */
export function siteCharacters(): Set<number> {
  const codePoints = new Set<number>()
  for (let code = 0x20; code <= 0x7e; code++) codePoints.add(code)
  for (let code = 0xa0; code <= 0xff; code++) codePoints.add(code)
  const sources = [
    LETTERS,
    ...[
      ...filesIn(join(ROOT, 'locales'), /\.json$/),
      ...filesIn(join(ROOT, 'shared'), /\.ts$/),
    ].map((file) => readFileSync(file, 'utf8')),
  ]
  for (const text of sources) {
    for (const character of text) {
      const code = character.codePointAt(0) ?? 0
      if (code >= 0x20 && !(code >= 0x7f && code < 0xa0)) codePoints.add(code)
    }
  }
  return codePoints
}

/** Latin-extended letters (Polish) go to a second, small file; the rest to the main one. */
export function isExtended(code: number): boolean {
  return code > 0xff && code < 0x2000
}

/** A CSS unicode-range for a set of code points, with runs collapsed (U+41-5A). */
export function unicodeRange(codePoints: Iterable<number>): string {
  const sorted = [...new Set(codePoints)].sort((a, b) => a - b)
  const parts: string[] = []
  for (let index = 0; index < sorted.length;) {
    const start = sorted[index] ?? 0
    let end = start
    while (sorted[index + 1] === end + 1) end = sorted[++index] ?? end
    index++
    const hex = (code: number) => code.toString(16).toUpperCase()
    parts.push(start === end ? `U+${hex(start)}` : `U+${hex(start)}-${hex(end)}`)
  }
  return parts.join(', ')
}
