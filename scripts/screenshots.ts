// `npm run screenshots`: full-page screenshots in Debian's Chromium of every page of the route
// table in every locale, plus the 404 page, at desktop width and at 375 px, from the production
// build. For looking at what a change did, and for comparing two builds pixel by pixel
// (`--compare` with the folder of an earlier run).
//
// Options: --out DIR (default reports/screenshots, or reports/screenshots-MODE), --pages
// /,/contact (unprefixed paths; default: all), --compare DIR (report which screenshots differ
// from that folder's), --mode light|dark|forced (the colour scheme the browser asks for, or
// forced colours as Windows high contrast sets them; default light), --pseudo (the English
// pages in the pseudo-locale, shared/pseudo-locale.ts: the build served with NODE_ENV=test,
// as production never serves it; also at 320 px, the width its reflow test uses).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { chromium, type Page } from '@playwright/test'
import { LOCALIZED_PAGES } from '#shared/pages.ts'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '#tests/helpers/chromium.ts'
import { killAll, requireBuild, ROOT, startProductionServer, stop } from './lib/processes.ts'

const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  mobile: { width: 375, height: 740 },
} as const
/** WCAG's reflow width, where the pseudo-locale's longer words are tested (tests/e2e/pseudo-locale.spec.ts). */
const REFLOW = { width: 320, height: 640 } as const

/** What each --mode asks of the browser context. */
const MODES = {
  light: { colorScheme: 'light' },
  dark: { colorScheme: 'dark' },
  forced: { colorScheme: 'dark', forcedColors: 'active' },
} as const

const { values: args } = parseArgs({
  options: {
    out: { type: 'string' },
    pages: { type: 'string' },
    compare: { type: 'string' },
    mode: { type: 'string', default: 'light' },
    pseudo: { type: 'boolean', default: false },
  },
})
if (!Object.hasOwn(MODES, args.mode)) {
  console.error(`--mode must be one of ${Object.keys(MODES).join(', ')}, not "${args.mode}"`)
  process.exit(2)
}
const mode = args.mode as keyof typeof MODES
const variant = [...(mode === 'light' ? [] : [mode]), ...(args.pseudo ? ['pseudo'] : [])]
const out = args.out ?? join(ROOT, 'reports', ['screenshots', ...variant].join('-'))

const wanted = args.pages?.split(',').map((path) => path.trim())
/** Every page of the table in every locale (or those asked for), then the 404 page. */
const shots = [
  ...LOCALIZED_PAGES.filter((entry) => !wanted || wanted.includes(entry.page.path))
    // The pseudo-locale takes English's place.
    .filter((entry) => !args.pseudo || entry.locale === 'en')
    .map((entry) => ({ path: entry.path, name: `${entry.locale}-${entry.id}` })),
  { path: '/this-page-does-not-exist', name: 'en-not-found' },
]

async function settle(page: Page) {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
  await page.evaluate(() => document.fonts.ready)
}

requireBuild()
rmSync(out, { recursive: true, force: true })
mkdirSync(out, { recursive: true })
const { child, base } = await startProductionServer({
  LOG_LEVEL: 'warn',
  ...(args.pseudo ? { NODE_ENV: 'test', PSEUDO_LOCALE: '1' } : {}),
})
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
const different: string[] = []
try {
  const viewports = args.pseudo ? { ...VIEWPORTS, reflow: REFLOW } : VIEWPORTS
  for (const [viewportName, viewport] of Object.entries(viewports)) {
    const context = await browser.newContext({ viewport, reducedMotion: 'reduce', ...MODES[mode] })
    const page = await context.newPage()
    for (const { path, name } of shots) {
      await page.goto(`${base}${path}`)
      await settle(page)
      const file = `${name}.${viewportName}.png`
      const shot = await page.screenshot({ fullPage: true, animations: 'disabled' })
      const target = join(out, file)
      writeFileSync(target, shot)
      if (args.compare) {
        let before: Buffer | null = null
        try {
          before = readFileSync(join(args.compare, file))
        } catch {
          before = null
        }
        if (!before || !before.equals(shot)) different.push(file)
      }
    }
    await context.close()
  }
} finally {
  await browser.close()
  await stop(child)
  killAll()
}
console.log(`${shots.length * (args.pseudo ? 3 : 2)} screenshots (${mode}) in ${out}`)
if (args.compare) {
  console.log(
    different.length === 0
      ? `identical to ${args.compare}`
      : `${different.length} differ from ${args.compare}:\n  ${different.join('\n  ')}`,
  )
}
