// The share image of a page (1200 × 630 PNG, what a link preview shows): the brand mark and
// name, the page's badge and its headline on the brand's dark surface. Laid out by satori
// (HTML/CSS subset to SVG, text as paths) and rasterized by resvg, both at build time
// (scripts/write-share-images.ts); tests/scripts/share-card.test.ts looks at the pixels.
import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { join } from 'node:path'
import { Resvg } from '@resvg/resvg-js'
import { Blob, Buffer as ShapingBuffer, Face, Font, shape } from 'harfbuzzjs'
import satori, { type Font as SatoriFont } from 'satori'
import subsetFont from 'subset-font'
import { SHARE_IMAGE_SIZE } from '#shared/share-images.ts'

const require = createRequire(import.meta.url)
const ROOT = join(import.meta.dirname, '..', '..')

export type ShareCardText = {
  /** A few words above the headline (the page's badge). */
  badge: string
  /** The page's headline: wrapped, and smaller when it is long or has a long word. */
  title: string
}

/** Inter's weights on the card: the headline and the badge and brand name. */
const WEIGHTS = { title: 800, label: 600 } as const
const SOURCES = ['latin', 'latin-ext'] as const
/** One family per source file; satori takes a glyph from the next family when one lacks it. */
const FAMILIES = { latin: 'Inter', 'latin-ext': 'Inter Ext' } as const

const PADDING = { x: 80, y: 64 }
const TEXT_WIDTH = SHARE_IMAGE_SIZE.width - 2 * PADDING.x
/** Headline sizes to try, largest first; the first whose lines fit `TITLE_HEIGHT` is used. */
const TITLE_SIZES = [76, 68, 60, 54, 48, 42] as const
const TITLE_LINE_HEIGHT = 1.12
/** What the headline may fill below the brand row and the badge. */
const TITLE_HEIGHT = 300

/** The colours of the site's design tokens (client/styles/tokens.css) the card uses. */
function tokenColors() {
  const css = readFileSync(join(ROOT, 'client', 'styles', 'tokens.css'), 'utf8')
  const token = (name: string) => {
    const value = new RegExp(`--color-${name}:\\s*([^;]+);`).exec(css)?.[1]?.trim()
    if (!value) throw new Error(`client/styles/tokens.css has no --color-${name}`)
    return value
  }
  return {
    surface: token('surface-dark'),
    watermark: token('surface-darker'),
    text: token('text-inverse'),
    muted: token('text-inverse-muted'),
    accent: token('accent'),
    onAccent: token('surface-dark'),
  }
}

export type ShareCardFonts = {
  satori: SatoriFont[]
  /** The headline's shaping fonts, to measure words before satori wraps them. */
  measure: Font[]
  /** Every character the fonts hold. */
  characters: ReadonlySet<number>
}

/**
 * Inter cut to the characters of `text` at the card's two weights, from the same variable
 * font the site uses (satori reads TrueType, not WOFF2). Throws when a character of `text`
 * is in neither of Inter's files, so no glyph can silently be missing from an image.
 */
export async function loadShareCardFonts(text: string): Promise<ShareCardFonts> {
  // Spaces too: satori takes a space's width from the font (no-break ones from typesetting).
  const wanted = [...new Set(text.replace(/[\n\t]/g, ''))].join('')
  const satoriFonts: SatoriFont[] = []
  const measure: Font[] = []
  const characters = new Set<number>()
  for (const source of SOURCES) {
    const file = readFileSync(
      require.resolve(`@fontsource-variable/inter/files/inter-${source}-wght-normal.woff2`),
    )
    for (const weight of [WEIGHTS.title, WEIGHTS.label]) {
      const data = await subsetFont(file, wanted, {
        targetFormat: 'sfnt',
        variationAxes: { wght: weight },
      })
      const face = new Face(new Blob(data))
      for (const code of face.collectUnicodes()) characters.add(code)
      satoriFonts.push({ name: FAMILIES[source], data, weight, style: 'normal' })
      if (weight === WEIGHTS.title) measure.push(new Font(face))
    }
  }
  const missing: string[] = []
  for (const char of wanted) if (!characters.has(char.codePointAt(0) ?? 0)) missing.push(char)
  if (missing.length > 0) {
    throw new Error(`Share images: Inter has no glyph for ${missing.join(' ')}`)
  }
  return { satori: satoriFonts, measure, characters }
}

/** Width of `word` at 1 px, shaped with the first font that holds all its characters. */
function wordWidth(word: string, fonts: ShareCardFonts): number {
  let width = 0
  // Each character with a font that has it: Inter's two files hold disjoint alphabets.
  for (const char of word) {
    const code = char.codePointAt(0) ?? 0
    const font = fonts.measure.find((candidate) => candidate.nominalGlyph(code) !== undefined)
    if (!font) throw new Error(`Share images: Inter has no glyph for ${char}`)
    const buffer = new ShapingBuffer()
    buffer.addText(char)
    buffer.guessSegmentProperties()
    shape(font, buffer)
    const upem = font.face.upem
    width += buffer.getGlyphPositions().reduce((sum, position) => sum + position.xAdvance, 0) / upem
  }
  return width
}

/** The headline's size: the largest at which every word fits a line and the lines are few. */
export function titleSize(title: string, fonts: ShareCardFonts): number {
  const words = title.split(/\s+/).filter(Boolean)
  const widths = words.map((word) => wordWidth(word, fonts))
  const space = wordWidth('n', fonts) * 0.55
  for (const size of TITLE_SIZES) {
    if (Math.max(...widths) * size > TEXT_WIDTH) continue
    let lines = 1
    let used = 0
    for (const width of widths) {
      const next = used === 0 ? width * size : used + space * size + width * size
      if (next > TEXT_WIDTH) {
        lines++
        used = width * size
      } else used = next
    }
    if (lines * size * TITLE_LINE_HEIGHT <= TITLE_HEIGHT) return size
  }
  throw new Error(`Share images: "${title}" does not fit the card even at ${TITLE_SIZES.at(-1)} px`)
}

type Node = { type: string; props: Record<string, unknown> }
const h = (type: string, style: Record<string, unknown>, ...children: (Node | string)[]): Node => ({
  type,
  props: { style, children },
})

const svgDataUrl = (svg: string) =>
  `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`

/**
 * The brand mark as drawn in public/favicon.svg, and its letter alone, large and faint, as
 * the card's watermark. Flat colours: a gradient would triple the PNG's size.
 */
function markImages(watermarkColor: string): { mark: string; watermark: string } {
  const svg = readFileSync(join(ROOT, 'public', 'favicon.svg'), 'utf8')
  const letter = /<path\b[^>]*\/>/.exec(svg)?.[0]
  const viewBox = /viewBox="([^"]+)"/.exec(svg)?.[1]
  if (!letter || !viewBox) throw new Error('public/favicon.svg: expected a viewBox and a <path>')
  const faint = letter.replace(/stroke="[^"]+"/, `stroke="${watermarkColor}"`)
  return {
    mark: svgDataUrl(svg),
    watermark: svgDataUrl(
      `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${viewBox}">${faint}</svg>`,
    ),
  }
}

export type ShareCardRenderer = (text: ShareCardText) => Promise<Buffer>

/** A renderer with the fonts and colours loaded once. */
export function shareCardRenderer(fonts: ShareCardFonts, brand: string): ShareCardRenderer {
  const colors = tokenColors()
  const { mark, watermark } = markImages(colors.watermark)
  const { width, height } = SHARE_IMAGE_SIZE
  return async ({ badge, title }) => {
    const size = titleSize(title, fonts)
    const tree = h(
      'div',
      {
        width,
        height,
        boxSizing: 'border-box',
        display: 'flex',
        flexDirection: 'column',
        justifyContent: 'space-between',
        padding: `${PADDING.y}px ${PADDING.x}px`,
        backgroundColor: colors.surface,
        color: colors.text,
        fontFamily: Object.values(FAMILIES).join(', '),
        borderBottom: `12px solid ${colors.accent}`,
      },
      {
        type: 'img',
        props: {
          src: watermark,
          width: 560,
          height: 560,
          style: { position: 'absolute', right: -60, top: -70 },
        },
      },
      h(
        'div',
        // Positioned, so they paint above the watermark (positioned too), as in CSS.
        { display: 'flex', alignItems: 'center', gap: 22, position: 'relative' },
        { type: 'img', props: { src: mark, width: 64, height: 64 } },
        h('div', { fontSize: 38, fontWeight: WEIGHTS.label, letterSpacing: -0.5 }, brand),
      ),
      h(
        'div',
        {
          display: 'flex',
          flexDirection: 'column',
          alignItems: 'flex-start',
          gap: 28,
          position: 'relative',
        },
        h(
          'div',
          {
            display: 'flex',
            padding: '8px 22px',
            borderRadius: 999,
            backgroundColor: colors.accent,
            color: colors.onAccent,
            fontSize: 28,
            fontWeight: WEIGHTS.label,
            maxWidth: TEXT_WIDTH,
          },
          badge,
        ),
        h(
          'div',
          {
            display: 'flex',
            width: TEXT_WIDTH,
            fontSize: size,
            fontWeight: WEIGHTS.title,
            lineHeight: `${TITLE_LINE_HEIGHT}`,
            letterSpacing: -1,
            color: colors.text,
          },
          title,
        ),
      ),
    )
    // satori's types are React's; the tree is the plain object React elements are.
    const svg = await satori(tree as unknown as Parameters<typeof satori>[0], {
      width,
      height,
      fonts: fonts.satori,
    })
    return new Resvg(svg, { fitTo: { mode: 'width', value: width } }).render().asPng()
  }
}
