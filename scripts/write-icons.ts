// Build step: the icons platforms ask for, made from the one brand source (public/favicon.svg)
// and written into dist/client; the manifest there is public/site.webmanifest with them added.
// - apple-touch-icon.png, 180 px: iOS home screens; full-bleed, as iOS rounds corners itself.
// - icon-192.png and icon-512.png: Android and desktop installs, the mark as the favicon.
// - icon-maskable-512.png: full-bleed with the mark inside the safe zone (the middle 80 %), for
//   platforms that cut icons to their own shape.
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { Resvg } from '@resvg/resvg-js'
import { ICONS, type IconSpec } from '#shared/icons.ts'
import { THEME_COLORS } from '#shared/theme.ts'

const ROOT = join(import.meta.dirname, '..')
const out = join(ROOT, 'dist', 'client')
const source = readFileSync(join(ROOT, 'public', 'favicon.svg'), 'utf8')

/** The brand mark: its view box, its background color and the shapes on it. */
function markOf(svg: string): { viewBox: string; background: string; mark: string } {
  const viewBox = /viewBox="([^"]+)"/.exec(svg)?.[1]
  const inner = /<svg[^>]*>([\s\S]*)<\/svg>/.exec(svg)?.[1]
  const rect = inner ? /<rect\b[^>]*\/>/.exec(inner)?.[0] : undefined
  const background = rect ? /fill="([^"]+)"/.exec(rect)?.[1] : undefined
  if (!viewBox || !inner || !rect || !background) {
    throw new Error('public/favicon.svg: expected a viewBox and a background <rect> with a fill')
  }
  return { viewBox, background, mark: inner.replace(rect, '') }
}

/** The SVG of one icon: the source as it is, or full-bleed with the mark scaled. */
function iconSvg(icon: IconSpec): string {
  if (icon.shape === 'source') return source
  const { viewBox, background, mark } = markOf(source)
  const [x = 0, y = 0, width = 32, height = 32] = viewBox.split(/\s+/).map(Number)
  const [cx, cy] = [x + width / 2, y + height / 2]
  const scale = icon.shape === 'maskable' ? 0.7 : 0.9
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" viewBox="${viewBox}">` +
    `<rect x="${x}" y="${y}" width="${width}" height="${height}" fill="${background}"/>` +
    `<g transform="translate(${cx} ${cy}) scale(${scale}) translate(${-cx} ${-cy})">${mark}</g>` +
    `</svg>`
  )
}

const started = performance.now()
for (const icon of ICONS) {
  const png = new Resvg(iconSvg(icon), { fitTo: { mode: 'width', value: icon.size } })
    .render()
    .asPng()
  writeFileSync(join(out, icon.file), png)
}

const manifestPath = join(out, 'site.webmanifest')
const base = JSON.parse(readFileSync(join(ROOT, 'public', 'site.webmanifest'), 'utf8')) as {
  icons: object[]
}
const manifest = {
  ...base,
  theme_color: THEME_COLORS.light,
  icons: [
    ...base.icons,
    ...ICONS.filter((icon) => icon.inManifest).map((icon) => ({
      src: `/${icon.file}`,
      type: 'image/png',
      sizes: `${icon.size}x${icon.size}`,
      ...(icon.shape === 'maskable' ? { purpose: 'maskable' } : {}),
    })),
  ],
}
writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`)
console.log(
  `icons: ${ICONS.length} PNGs from public/favicon.svg in ${Math.round(performance.now() - started)} ms`,
)
