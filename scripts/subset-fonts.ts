// `npm run fonts`: writes Inter's subset files and their @font-face rules into client/ (see
// scripts/lib/font-subset.ts). Run it when tests/shared/fonts.test.ts says the copy gained a
// character. Instead of 49 + 86 kB for fontsource's latin and latin-ext files, about 28 + 4 kB
// (docs/decisions/fonts-cut-to-the-sites-characters.md).
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { buildFontSubsets, FONTS_CSS } from './lib/font-subset.ts'

const ROOT = join(import.meta.dirname, '..')
const { css, files } = await buildFontSubsets()
for (const file of files) {
  writeFileSync(join(ROOT, 'client', 'assets', 'fonts', `${file.name}.woff2`), file.bytes)
  const missing = file.missing.map((code) => String.fromCodePoint(code)).join(' ')
  console.log(
    `${file.name}.woff2: ${file.codePoints.length} characters, ${(file.bytes.length / 1000).toFixed(1)} kB${missing ? `; from the fallback font: ${missing}` : ''}`,
  )
}
writeFileSync(FONTS_CSS, css)
