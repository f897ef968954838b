// `npm run first-view`: the JavaScript a page's first view costs, measured by Chromium (Debian's,
// through Playwright) against the production server it starts on loopback (or `--url`). For each
// page: every script the browser fetched until the page was hydrated (the `data-hydrated` mark of
// client/root.tsx), as transferred (response headers and body, Brotli as the browser asks for
// it), and, apart, what loads after hydration (the runtime, the text map, prefetched pages). The
// budget script (`npm run budget`) counts gzip -9 bodies of the same first view without headers.
// Each page in a fresh browser context (nothing cached), the page cache warmed first.
//
// Options: --pages home,contact,… (default: one page of each page module and the 404 page),
// --locale en|de|pl (en), --url http://host:port.
import { parseArgs } from 'node:util'
import { chromium } from '@playwright/test'
import { localizePath, type Locale } from '#shared/locales.ts'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '#tests/helpers/chromium.ts'
import { PAGE_ORDER, PAGE_TYPES } from './lib/page-types.ts'
import { killAll, requireBuild, startProductionServer, stop } from './lib/processes.ts'

const { values: args } = parseArgs({
  options: {
    pages: { type: 'string' },
    locale: { type: 'string', default: 'en' },
    url: { type: 'string' },
  },
})

const pages = args.pages ? args.pages.split(',') : PAGE_ORDER
for (const name of pages) {
  if (!(name in PAGE_TYPES)) {
    console.error(`unknown page type ${name}; known: ${Object.keys(PAGE_TYPES).join(', ')}`)
    process.exit(2)
  }
}
const locale = args.locale as Locale

/** One script the page fetched: when the request left (epoch ms), its bytes on the wire. */
type Script = { url: string; sentAt: number; headers: number; body: number }

async function measure(base: string) {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: CHROMIUM_ARGS })
  const kB = (bytes: number) => (bytes / 1000).toFixed(1).padStart(6)
  console.log(
    `first-view JavaScript in Chromium ${browser.version()}, ${locale}, as transferred (response headers + body)`,
  )
  console.log('page            until hydrated  scripts  of which headers   after hydration')
  try {
    for (const name of pages) {
      const path = localizePath(locale, PAGE_TYPES[name] ?? '/')
      await fetch(base + path) // the page cache holds it, as on a running site
      const context = await browser.newContext()
      const page = await context.newPage()
      const sent = new Map<string, number>()
      const scripts: Promise<Script>[] = []
      page.on('request', (request) => sent.set(request.url(), Date.now()))
      page.on('requestfinished', (request) => {
        if (request.resourceType() !== 'script') return
        scripts.push(
          request.sizes().then((sizes) => ({
            url: request.url(),
            sentAt: sent.get(request.url()) ?? Infinity,
            headers: sizes.responseHeadersSize,
            body: sizes.responseBodySize,
          })),
        )
      })
      // The moment hydration marks the document (client/root.tsx), observed from the document
      // down: the script runs before the parser made `<html>`.
      await page.addInitScript(() => {
        new MutationObserver((_records, observer) => {
          if (document.documentElement.dataset.hydrated !== 'true') return
          ;(window as unknown as { hydratedAt: number }).hydratedAt =
            performance.timeOrigin + performance.now()
          observer.disconnect()
        }).observe(document, {
          attributes: true,
          subtree: true,
          attributeFilter: ['data-hydrated'],
        })
      })
      await page.goto(base + path, { waitUntil: 'load' })
      await page.waitForFunction(() => 'hydratedAt' in window)
      await page.waitForLoadState('networkidle')
      const hydratedAt = await page.evaluate(
        () => (window as unknown as { hydratedAt: number }).hydratedAt,
      )
      const fetched = await Promise.all(scripts)
      await context.close()
      const before = fetched.filter((script) => script.sentAt < hydratedAt)
      const after = fetched.filter((script) => script.sentAt >= hydratedAt)
      const sum = (list: Script[], part?: 'headers') =>
        list.reduce((total, script) => total + script.headers + (part ? 0 : script.body), 0)
      console.log(
        `${name.padEnd(16)}${kB(sum(before))} kB ${String(before.length).padStart(8)} ${kB(sum(before, 'headers'))} kB ${kB(sum(after))} kB (${after.length})`,
      )
    }
  } finally {
    await browser.close()
  }
}

if (args.url) {
  await measure(args.url.replace(/\/$/, ''))
} else {
  requireBuild()
  const server = await startProductionServer({})
  try {
    await measure(server.base)
  } finally {
    await stop(server.child)
    killAll()
  }
}
