// `npm run audit`: Lighthouse (Node API, Debian Chromium) on one page of each type in each
// locale, mobile and desktop, against the production server it starts on loopback. Prints the
// four category scores with LCP, CLS, TBT and the bytes transferred, writes the JSON reports
// to reports/lighthouse/ (ignored by git) and exits 1 under the budgets.
//
// Options: --pages home,contact,… (default: all types), --form-factors mobile,desktop,
// --runs N (the run with the median performance score counts; default 1),
// --url http://host:port (audit a running server instead of starting one).
import { mkdirSync, rmSync, writeFileSync } from 'node:fs'
import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import * as chromeLauncher from 'chrome-launcher'
import lighthouse, { desktopConfig, type Flags } from 'lighthouse'
import { LOCALES, localizePath } from '#shared/locales.ts'
import { SCREENS, screenSample } from '#shared/pages.ts'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '#tests/helpers/chromium.ts'
import { killAll, requireBuild, ROOT, startProductionServer, stop } from './lib/processes.ts'

/** One page of each page module of the table, and the 404 page; localized for each locale. */
const PAGE_TYPES: Record<string, string> = {
  ...Object.fromEntries(SCREENS.map((screen) => [screen, screenSample(screen).path])),
  '404': '/this-page-does-not-exist',
}
type PageType = string
const PAGE_ORDER: PageType[] = Object.keys(PAGE_TYPES)
/**
 * What the 404 page fails on purpose: it answers 404 (which the browser logs as a console
 * error) and is not meant to be indexed. Anything else counts against it like any page.
 */
const EXPECTED_ON_404 = new Set(['http-status-code', 'is-crawlable', 'errors-in-console'])
type FormFactor = 'mobile' | 'desktop'

const CATEGORIES = ['performance', 'accessibility', 'best-practices', 'seo'] as const
type Category = (typeof CATEGORIES)[number]
/** Minimum scores (0–100). Performance is held at 95 on mobile, the harder of the two. */
const BUDGETS: Record<FormFactor, Record<Category, number>> = {
  mobile: { performance: 95, accessibility: 100, 'best-practices': 100, seo: 100 },
  desktop: { performance: 95, accessibility: 100, 'best-practices': 100, seo: 100 },
}

const { values: args } = parseArgs({
  options: {
    pages: { type: 'string', default: PAGE_ORDER.join(',') },
    'form-factors': { type: 'string', default: 'mobile,desktop' },
    url: { type: 'string' },
    runs: { type: 'string', default: '1' },
  },
})
/** Lighthouse's own advice against variance: several runs, and the median one reported. */
const RUNS = Math.max(1, Math.trunc(Number(args.runs)) || 1)

function list<T extends string>(value: string, allowed: readonly T[], name: string): T[] {
  const items = value.split(',').map((item) => item.trim())
  const unknown = items.filter((item) => !allowed.includes(item as T))
  if (unknown.length > 0) {
    console.error(`${name}: unknown ${unknown.join(', ')}; choose from ${allowed.join(', ')}`)
    process.exit(2)
  }
  return items as T[]
}
const pages = list(args.pages, PAGE_ORDER, '--pages')
const formFactors = list(args['form-factors'], ['mobile', 'desktop'] as const, '--form-factors')

const REPORTS = join(ROOT, 'reports', 'lighthouse')
mkdirSync(REPORTS, { recursive: true })

let server: Awaited<ReturnType<typeof startProductionServer>> | null = null
let base = args.url?.replace(/\/$/, '')
const outbox = mkdtempSync(join(tmpdir(), 'audit-outbox-'))
if (!base) {
  requireBuild()
  server = await startProductionServer({ OUTBOX_DIR: outbox, LOG_LEVEL: 'warn' })
  base = server.base
}

// A running site has rendered its pages before a visitor comes: warm the page cache first.
for (const page of pages) {
  for (const locale of LOCALES) {
    const response = await fetch(`${base}${localizePath(locale, PAGE_TYPES[page] ?? '/')}`)
    await response.arrayBuffer()
  }
}

const chrome = await chromeLauncher.launch({
  chromePath: CHROMIUM_PATH,
  // The tests' flags: nothing resolves but loopback, no request can leave the machine.
  chromeFlags: ['--headless', ...CHROMIUM_ARGS],
  // No "DNS probe" to a public resolver after a failed navigation.
  prefs: { alternate_error_pages: { enabled: false } },
  logLevel: 'silent',
})

/** One Lighthouse run; a run that failed to record (NO_NAVSTART and the like) is repeated. */
async function audit(url: string, flags: Flags, formFactor: FormFactor) {
  for (let attempt = 1; ; attempt++) {
    const result = await lighthouse(
      url,
      flags,
      formFactor === 'desktop' ? desktopConfig : undefined,
    )
    if (!result) throw new Error(`Lighthouse returned nothing for ${url}`)
    if (!result.lhr.runtimeError || attempt === 3) return result
  }
}

type RunnerResult = NonNullable<Awaited<ReturnType<typeof lighthouse>>>

async function medianRun(url: string, flags: Flags, formFactor: FormFactor) {
  const results: RunnerResult[] = []
  for (let run = 0; run < RUNS; run++) results.push(await audit(url, flags, formFactor))
  const score = (result: RunnerResult) => result.lhr.categories.performance?.score ?? 0
  results.sort((a, b) => score(a) - score(b))
  const median = results[Math.floor(results.length / 2)]
  if (!median) throw new Error('no Lighthouse run')
  return median
}

type Row = {
  page: PageType
  url: string
  formFactor: FormFactor
  scores: Record<Category, number>
  lcp: number
  cls: number
  tbt: number
  bytes: number
}
const rows: Row[] = []
const failures: string[] = []

try {
  for (const page of pages) {
    for (const locale of LOCALES) {
      const path = localizePath(locale, PAGE_TYPES[page] ?? '/')
      const url = `${base}${path}`
      for (const formFactor of formFactors) {
        const flags: Flags = {
          port: chrome.port,
          output: 'json',
          logLevel: 'error',
          onlyCategories: [...CATEGORIES],
          // The 404 page answers 404 on purpose; audit it anyway.
          ignoreStatusCode: page === '404',
        }
        const { lhr, report } = await medianRun(url, flags, formFactor)
        const name = `${page}-${locale}-${formFactor}.json`
        writeFileSync(join(REPORTS, name), Array.isArray(report) ? report.join('') : report)
        if (lhr.runtimeError) {
          failures.push(
            `${path} [${formFactor}] ${lhr.runtimeError.code}: ${lhr.runtimeError.message}`,
          )
          continue
        }
        const scores = Object.fromEntries(
          CATEGORIES.map((id) => [id, Math.round((lhr.categories[id]?.score ?? 0) * 100)]),
        ) as Record<Category, number>
        const numeric = (id: string) => lhr.audits[id]?.numericValue ?? Number.NaN
        const row: Row = {
          page,
          url: path,
          formFactor,
          scores,
          lcp: numeric('largest-contentful-paint'),
          cls: numeric('cumulative-layout-shift'),
          tbt: numeric('total-blocking-time'),
          bytes: numeric('total-byte-weight'),
        }
        rows.push(row)
        printRow(row)
        for (const category of CATEGORIES) {
          const minimum = BUDGETS[formFactor][category]
          if (scores[category] >= minimum) continue
          const failing = (lhr.categories[category]?.auditRefs ?? [])
            .filter((ref) => ref.weight > 0 && (lhr.audits[ref.id]?.score ?? 1) < 1)
            .map((ref) => ref.id)
          if (page === '404' && failing.every((id) => EXPECTED_ON_404.has(id))) continue
          failures.push(
            `${path} [${formFactor}] ${category} ${scores[category]} < ${minimum} (${failing.join(', ')})`,
          )
        }
      }
    }
  }
} finally {
  chrome.kill()
  if (server) await stop(server.child)
  rmSync(outbox, { recursive: true, force: true })
  killAll()
}

function printRow(row: Row) {
  const { scores } = row
  if (rows.length === 1) {
    console.log(
      `${'page'.padEnd(34)} ${'form'.padEnd(7)}  perf  a11y    bp   seo  LCP ms    CLS  TBT ms  transfer kB`,
    )
  }
  console.log(
    [
      row.url.padEnd(34),
      row.formFactor.padEnd(7),
      ...CATEGORIES.map((id) => String(scores[id]).padStart(5)),
      row.lcp.toFixed(0).padStart(7),
      row.cls.toFixed(3).padStart(6),
      row.tbt.toFixed(0).padStart(7),
      (row.bytes / 1000).toFixed(1).padStart(12),
    ].join(' '),
  )
}

const lowest = (category: Category, formFactor: FormFactor) =>
  Math.min(
    ...rows.filter((row) => row.formFactor === formFactor).map((row) => row.scores[category]),
  )
for (const formFactor of formFactors) {
  console.log(
    `${formFactor}: lowest page scores ${CATEGORIES.map((id) => `${id} ${lowest(id, formFactor)}`).join(', ')}`,
  )
}
console.log(`JSON reports: ${REPORTS}`)
if (failures.length > 0) {
  console.error(`\nLIGHTHOUSE BUDGET FAILED:\n  ${failures.join('\n  ')}`)
  process.exitCode = 1
} else {
  console.log(`all Lighthouse budgets met (${rows.length} audits)`)
}
