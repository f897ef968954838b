// Build step: the share image of every page in every language, and the site's generic one
// per language (404 and 500 pages), as PNGs under dist/client/assets/share/ with the hash of
// their content in the name, so they are served like every other hashed asset (immutable).
// dist/share-images.json tells the server which file is whose. Prints the time it took.
import { createHash } from 'node:crypto'
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { COMPANY } from '#shared/company.ts'
import { LOCALES } from '#shared/locales.ts'
import { PAGES } from '#shared/pages.ts'
import { genericTexts, pageTexts, type Translate } from '#shared/page-texts.ts'
import {
  SHARE_IMAGE_MANIFEST,
  SHARE_IMAGE_SIZE,
  shareImageKey,
  type ShareImageKey,
  type ShareImageManifest,
  type ShareSubject,
} from '#shared/share-images.ts'
import { loadSiteTexts } from '#server/plugins/i18n.ts'
import { loadShareCardFonts, shareCardRenderer, type ShareCardText } from './lib/share-card.ts'

const ROOT = join(import.meta.dirname, '..')
const DIST = join(ROOT, 'dist')
const OUT = join(DIST, 'client', 'assets', 'share')

const started = performance.now()
const i18n = await loadSiteTexts(join(ROOT, 'locales'))

const cards: { key: ShareImageKey; subject: ShareSubject; text: ShareCardText }[] = []
for (const locale of LOCALES) {
  const t = i18n.getFixedT(locale) as unknown as Translate
  for (const page of PAGES) {
    const { badge, title } = pageTexts(page, t)
    cards.push({ key: shareImageKey(locale, page.id), subject: page.id, text: { badge, title } })
  }
  cards.push({ key: shareImageKey(locale, 'generic'), subject: 'generic', text: genericTexts(t) })
}

const fonts = await loadShareCardFonts(
  [COMPANY.brand, ...cards.map(({ text }) => `${text.badge}${text.title}`)].join(''),
)
const render = shareCardRenderer(fonts, COMPANY.brand)
// Only this run's images: a text changed since the last run leaves no stale file behind.
rmSync(OUT, { recursive: true, force: true })
mkdirSync(OUT, { recursive: true })
const images: Partial<Record<ShareImageKey, string>> = {}
let bytes = 0
for (const { key, subject, text } of cards) {
  const png = await render(text)
  const hash = createHash('sha256').update(png).digest('base64url').slice(0, 10)
  const name = `${subject}.${key.split('/')[0]}.${hash}.png`
  writeFileSync(join(OUT, name), png)
  images[key] = `/assets/share/${name}`
  bytes += png.length
}

const manifest: ShareImageManifest = {
  ...SHARE_IMAGE_SIZE,
  images: images as Record<ShareImageKey, string>,
}
writeFileSync(join(DIST, SHARE_IMAGE_MANIFEST), `${JSON.stringify(manifest, null, 2)}\n`)
const seconds = ((performance.now() - started) / 1000).toFixed(1)
console.log(
  `share images: ${cards.length} PNGs of ${SHARE_IMAGE_SIZE.width}×${SHARE_IMAGE_SIZE.height}, ` +
    `${Math.round(bytes / cards.length / 1024)} KiB on average, in ${seconds} s`,
)
