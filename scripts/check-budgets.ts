// Size budgets of the client build (issue #10), checked after every build: the JavaScript and
// CSS the first view of each page type loads (the same files the server links, from Vite's
// manifest), every image, and the fonts. Prints a table; exits 1 over budget.
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { gzipSync } from 'node:zlib'
import { createAssetResolver, loadManifest } from '#server/render/assets.ts'
import { SCREENS, screenSource } from '#shared/pages.ts'

const KB = 1000
export const BUDGETS = {
  /**
   * JavaScript of a page's first view as browsers receive it: each file's Brotli form where the
   * build made one (scripts/compress-assets.ts), else the file; summed. Each change has its
   * dated record: 130 → 132 kB (docs/decisions/first-view-javascript-budget-130-to-132.md),
   * 120 → 130 kB with i18next (docs/decisions/i18next-is-the-one-translation-engine.md),
   * 130 → 131 kB (docs/decisions/first-view-javascript-budget-130-to-131.md), back to 130 kB
   * (docs/decisions/first-view-budget.md), all gzip -9; 115 kB as sent, in Brotli, beside
   * the gzip bar (docs/decisions/first-view-budget-as-sent.md).
   */
  firstViewJs: 115 * KB,
  /** The same first view in gzip -9 per file: the design's bar, which holds beside it. */
  firstViewJsGzip: 130 * KB,
  /** CSS of a page's first view, as sent. */
  firstViewCss: 20 * KB,
  /** Any single image file as shipped. */
  image: 200 * KB,
  /** Any single font file (one unicode-range subset). */
  font: 100 * KB,
}

/** Each page module of the page table; the 404 and error pages load the entry alone. */
const PAGE_TYPES: [string, string[]][] = [
  ...SCREENS.map((screen): [string, string[]] => [screen, [screenSource(screen)]]),
  ['404 / error', []],
]

const IMAGE = /\.(svg|png|jpe?g|webp|avif|gif|ico)$/
const FONT = /\.(woff2?|ttf|otf)$/

// The client build to check: dist/client, or the folder given as the first argument.
const root = process.argv[2] ?? join(import.meta.dirname, '..', 'dist', 'client')
const manifest = await loadManifest(join(root, '.vite', 'manifest.json'))
const resolve = createAssetResolver(manifest)
const failures: string[] = []

/** A file's bytes as a browser receives them: its Brotli twin, or itself when it has none. */
function sentSize(url: string): number {
  const brotli = join(root, `${url}.br`)
  return statSync(existsSync(brotli) ? brotli : join(root, url)).size
}

const gzipSizes = new Map<string, number>()

/** A file's gzip -9 size, made once per file: every page type's first view has the framework. */
function gzipSize(url: string): number {
  let size = gzipSizes.get(url)
  if (size === undefined) {
    size = gzipSync(readFileSync(join(root, url)), { level: 9 }).length
    gzipSizes.set(url, size)
  }
  return size
}

const kb = (bytes: number) => (bytes / KB).toFixed(1)
const sum = (urls: readonly string[], size = sentSize) =>
  urls.reduce((total, url) => total + size(url), 0)

// The entry runs before the first paint: it may import nothing statically (the framework and
// the page load after the paint, see client/entry-client.tsx and
// docs/decisions/paint-then-hydrate.md).
const entryImports = manifest['client/entry-client.tsx']?.imports ?? []
if (entryImports.length > 0)
  failures.push(`the entry imports ${entryImports.join(', ')} statically`)

const manifestSources = new Set(Object.values(manifest).map((chunk) => chunk.src))
console.log('first view, as sent        JS kB  files   CSS kB   JS kB gzip')
for (const [name, sources] of PAGE_TYPES) {
  for (const source of sources) {
    if (!manifestSources.has(source)) failures.push(`${source} is not in the client manifest`)
  }
  const assets = resolve(sources)
  const scripts = [...assets.bootstrap, ...assets.modules]
  const js = sum(scripts)
  const jsGzip = sum(scripts, gzipSize)
  const css = sum(assets.styles)
  const isOver =
    js > BUDGETS.firstViewJs || jsGzip > BUDGETS.firstViewJsGzip || css > BUDGETS.firstViewCss
  console.log(
    `${name.padEnd(24)} ${kb(js).padStart(7)} ${String(scripts.length).padStart(6)} ${kb(css).padStart(8)} ${kb(jsGzip).padStart(12)}${isOver ? '  OVER' : ''}`,
  )
  if (js > BUDGETS.firstViewJs) {
    failures.push(`${name}: first-view JS ${kb(js)} kB > ${kb(BUDGETS.firstViewJs)} kB`)
  }
  if (jsGzip > BUDGETS.firstViewJsGzip) {
    failures.push(
      `${name}: first-view JS ${kb(jsGzip)} kB gzip > ${kb(BUDGETS.firstViewJsGzip)} kB`,
    )
  }
  if (css > BUDGETS.firstViewCss) {
    failures.push(`${name}: first-view CSS ${kb(css)} kB > ${kb(BUDGETS.firstViewCss)} kB`)
  }
}

function* files(dir: string): Generator<string> {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) yield* files(path)
    else yield path
  }
}

let images = 0
let largestImage = 0
const fonts: string[] = []
for (const path of files(root)) {
  const size = statSync(path).size
  if (IMAGE.test(path)) {
    images++
    largestImage = Math.max(largestImage, size)
    if (size > BUDGETS.image)
      failures.push(`image ${relative(root, path)}: ${kb(size)} kB > 200 kB`)
  } else if (FONT.test(path)) {
    fonts.push(relative(root, path))
    if (!path.endsWith('.woff2')) failures.push(`font ${relative(root, path)} is not WOFF2`)
    if (size > BUDGETS.font) failures.push(`font ${relative(root, path)}: ${kb(size)} kB > 100 kB`)
  }
}
console.log(`images: ${images}, largest ${kb(largestImage)} kB (budget ${kb(BUDGETS.image)} kB)`)

// Fonts are subset when each downloadable @font-face of the CSS names a unicode-range, so a
// browser fetches only the files whose characters a page uses (local() fallbacks download none).
const css = Object.values(manifest)
  .flatMap((chunk) => chunk.css ?? [])
  .map((file) => readFileSync(join(root, file), 'utf8'))
  .join('\n')
const faces = (css.match(/@font-face\s*{[^}]*}/g) ?? []).filter((face) => /url\(/.test(face))
const unranged = faces.filter((face) => !/unicode-range\s*:/.test(face))
if (unranged.length > 0) failures.push(`${unranged.length} @font-face without unicode-range`)
console.log(
  `fonts: ${fonts.length} WOFF2 subsets (${fonts.map((font) => kb(statSync(join(root, font)).size)).join(' + ')} kB), ${faces.length} downloadable @font-face, all with unicode-range: ${unranged.length === 0}`,
)

if (failures.length > 0) {
  console.error(`\nBUDGET EXCEEDED:\n  ${failures.join('\n  ')}`)
  process.exitCode = 1
} else {
  console.log(
    `budgets met: JS <= ${kb(BUDGETS.firstViewJs)} kB as sent and <= ${kb(BUDGETS.firstViewJsGzip)} kB gzip, CSS <= ${kb(BUDGETS.firstViewCss)} kB per first view`,
  )
}
