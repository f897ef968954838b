import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { buildFontSubsets, FONTS_CSS } from '#scripts/lib/font-subset.ts'

const ROOT = join(import.meta.dirname, '..', '..')

describe('the font subset', () => {
  it('is what `npm run fonts` makes from the current copy (run it after adding characters)', async () => {
    const { css, files } = await buildFontSubsets()
    expect(readFileSync(FONTS_CSS, 'utf8')).toBe(css)
    for (const file of files) {
      const committed = readFileSync(join(ROOT, 'client', 'assets', 'fonts', `${file.name}.woff2`))
      expect(committed.equals(file.bytes), `${file.name}.woff2 is up to date`).toBe(true)
    }
    // Every German and Polish letter is in a file, not left to the fallback font.
    const covered = new Set(files.flatMap((file) => file.codePoints))
    for (const letter of 'ÄÖÜäöüßĄąĆćĘęŁłŃńÓóŚśŹźŻż') {
      expect(covered.has(letter.codePointAt(0) ?? 0), letter).toBe(true)
    }
  })
})
