// `npm run screenshots`: full-page screenshots in Debian's Chromium of every page of the route
// table in every locale, plus the 404 page, at desktop width and at 375 px, from the production
// build. For looking at what a change did, and for comparing two builds pixel by pixel
// (`--compare` with the folder of an earlier run).
//
// Options: --out DIR (default reports/screenshots), --pages /,/contact (unprefixed paths;
// default: all), --compare DIR (report which screenshots differ from that folder's).
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { chromium, type Page } from '@playwright/test'
import { LOCALIZED_PAGES } from '#shared/pages.ts'
import { unlocalizePath } from '#shared/locales.ts'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '#tests/helpers/chromium.ts'
import { killAll, requireBuild, ROOT, startProductionServer, stop } from './lib/processes.ts'

const VIEWPORTS = {
  desktop: { width: 1280, height: 800 },
  mobile: { width: 375, height: 740 },
} as const

const { values: args } = parseArgs({
  options: {
    out: { type: 'string', default: join(ROOT, 'reports', 'screenshots') },
    pages: { type: 'string' },
    compare: { type: 'string' },
  },
})

const wanted = args.pages?.split(',').map((path) => path.trim())
const paths = [
  ...LOCALIZED_PAGES.filter((page) => !wanted || wanted.includes(unlocalizePath(page.path))).map(
    (page) => page.path,
  ),
  '/this-page-does-not-exist',
]

/** `/de/services/managed-it` → `de-services-managed-it`. */
function fileName(path: string, viewport: string): string {
  const name = path === '/' ? 'en-home' : path.slice(1).replace(/\//g, '-')
  return `${name.startsWith('de') || name.startsWith('pl') ? name : `en-${name}`}.${viewport}.png`
}

async function settle(page: Page) {
  await page.waitForFunction(() => document.documentElement.dataset.hydrated === 'true')
  await page.evaluate(() => document.fonts.ready)
}

requireBuild()
rmSync(args.out, { recursive: true, force: true })
mkdirSync(args.out, { recursive: true })
const { child, base } = await startProductionServer({ LOG_LEVEL: 'warn' })
const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
const different: string[] = []
try {
  for (const [viewportName, viewport] of Object.entries(VIEWPORTS)) {
    const context = await browser.newContext({ viewport, reducedMotion: 'reduce' })
    const page = await context.newPage()
    for (const path of paths) {
      await page.goto(`${base}${path}`)
      await settle(page)
      const file = fileName(path, viewportName)
      const shot = await page.screenshot({ fullPage: true, animations: 'disabled' })
      const target = join(args.out, file)
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
console.log(`${paths.length * 2} screenshots in ${args.out}`)
if (args.compare) {
  console.log(
    different.length === 0
      ? `identical to ${args.compare}`
      : `${different.length} differ from ${args.compare}:\n  ${different.join('\n  ')}`,
  )
}
