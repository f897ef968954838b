import { join } from 'node:path'
import { PNG } from 'pngjs'
import { beforeAll, describe, expect, it } from 'vitest'
import { COMPANY } from '#shared/company.ts'
import { LOCALES, type Locale } from '#shared/locales.ts'
import { page } from '#shared/pages.ts'
import { pageTexts, type Translate } from '#shared/page-texts.ts'
import { SHARE_IMAGE_SIZE } from '#shared/share-images.ts'
import { loadSiteTexts } from '#server/plugins/i18n.ts'
import {
  loadShareCardFonts,
  shareCardRenderer,
  titleSize,
  type ShareCardFonts,
  type ShareCardText,
} from '#scripts/lib/share-card.ts'

// The share images as pictures: the right size, with a headline actually drawn, and nothing
// outside the card's margins, however long a German compound is.

const COMPOUND = 'Datenschutz-Folgenabschätzung: Auftragsverarbeitungsvertragsverhandlungen'
const POLISH = 'Zażółć gęślą jaźń: ĄĆĘŁŃÓŚŹŻ'
const GLYPHS = 'äöüßÄÖÜąćęłńóśźżĄĆĘŁŃÓŚŹŻ'
const TOO_LONG = 'Rindfleischetikettierungsüberwachungsaufgabenübertragungsgesetz'

let texts: Record<Locale, ShareCardText>
let fonts: ShareCardFonts

beforeAll(async () => {
  const i18n = await loadSiteTexts(join(import.meta.dirname, '..', '..', 'locales'))
  const cards = LOCALES.map((locale) => {
    const { badge, title } = pageTexts(
      page('service-cloud-infrastructure'),
      i18n.getFixedT(locale) as unknown as Translate,
    )
    return [locale, { badge, title }] as const
  })
  texts = Object.fromEntries(cards) as Record<Locale, ShareCardText>
  const all = [
    COMPANY.brand,
    COMPOUND,
    POLISH,
    GLYPHS,
    TOO_LONG,
    ...cards.map(([, text]) => text.badge + text.title),
  ]
  fonts = await loadShareCardFonts(all.join(''))
})

/** Pixels close to a colour (anti-aliased edges are not counted). */
function isNear(data: Buffer, offset: number, [r, g, b]: readonly number[]): boolean {
  return (
    Math.abs((data[offset] ?? 0) - (r ?? 0)) < 24 &&
    Math.abs((data[offset + 1] ?? 0) - (g ?? 0)) < 24 &&
    Math.abs((data[offset + 2] ?? 0) - (b ?? 0)) < 24
  )
}

const TEXT = [0xf3, 0xf6, 0xf9] // --color-text-inverse
const ACCENT = [0xf5, 0xb8, 0x41] // --color-accent

async function picture(text: ShareCardText) {
  const png = PNG.sync.read(await shareCardRenderer(fonts, COMPANY.brand)(text))
  const count = (color: readonly number[], area: (x: number, y: number) => boolean) => {
    let found = 0
    for (let y = 0; y < png.height; y++) {
      for (let x = 0; x < png.width; x++) {
        if (area(x, y) && isNear(png.data, (y * png.width + x) * 4, color)) found++
      }
    }
    return found
  }
  return { png, count }
}

/** The margins: the text column is 80 px in from each side and ends above the accent bar. */
const outsideText = (x: number, y: number) => x < 72 || x >= SHARE_IMAGE_SIZE.width - 72 || y < 56

describe('share images', () => {
  it.each(LOCALES)('the %s picture is 1200 × 630 with its headline drawn', async (locale) => {
    const { png, count } = await picture(texts[locale])
    expect({ width: png.width, height: png.height }).toEqual(SHARE_IMAGE_SIZE)
    const all = () => true
    // Light text covers a good part of the card (a blank or text-less card has none) ...
    expect(count(TEXT, all) / (png.width * png.height)).toBeGreaterThan(0.04)
    // ... the badge and the accent bar are drawn ...
    expect(count(ACCENT, (_x, y) => y > 600)).toBeGreaterThan(1200 * 8)
    expect(count(ACCENT, (_x, y) => y > 150 && y < 560)).toBeGreaterThan(5000)
    // ... and nothing light leaves the text column.
    expect(count(TEXT, outsideText)).toBe(0)
  })

  it('a headline with a long German compound shrinks and stays inside the margins', async () => {
    expect(titleSize(COMPOUND, fonts)).toBeLessThan(titleSize(texts.de.title, fonts))
    const { count } = await picture({ badge: 'Rechtliches', title: COMPOUND })
    expect(count(TEXT, outsideText)).toBe(0)
    expect(count(TEXT, (_x, y) => y > 560)).toBe(0)
  })

  it('a word too long for any size fails the build instead of overflowing', () => {
    expect(() => titleSize(TOO_LONG, fonts)).toThrow(/does not fit/)
  })

  it('the fonts hold the German and Polish letters, and a missing glyph fails the build', async () => {
    for (const char of GLYPHS)
      expect(fonts.characters.has(char.codePointAt(0) ?? 0), char).toBe(true)
    await expect(loadShareCardFonts('Ω≈ 日本')).rejects.toThrow(/no glyph for/)
  })
})
