import { readFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { test as base, expect, type Page } from '@playwright/test'
import type { AxeResults, RunOptions } from 'axe-core'

/**
 * Fixtures for every browser test:
 * - `offsite`: any request that leaves the test server's origin (and `allowedOrigins`, a CDN's
 *   say) is aborted and fails the test;
 * - `problems`: console errors and warnings, page errors and CSP violations (Trusted Types
 *   among them: any sink given a plain string) fail the test.
 */
export const test = base.extend<{
  allowedOrigins: string[]
  offsite: string[]
  problems: string[]
}>({
  allowedOrigins: [[], { option: true }],
  offsite: [
    async ({ context, baseURL, allowedOrigins }, use) => {
      const allowed = [new URL(baseURL ?? 'http://127.0.0.1').origin, ...allowedOrigins]
      const offsite: string[] = []
      await context.route(
        (url) => /^(https?|wss?):$/.test(url.protocol) && !allowed.includes(url.origin),
        (route) => {
          offsite.push(route.request().url())
          return route.abort('blockedbyclient')
        },
      )
      await use(offsite)
      expect(offsite, 'requests that tried to leave the test server').toEqual([])
    },
    { auto: true },
  ],
  problems: [
    async ({ page }, use) => {
      const problems: string[] = []
      page.on('console', (message) => {
        if (message.type() === 'error' || message.type() === 'warning') {
          problems.push(`${message.type()}: ${message.text()}`)
        }
      })
      page.on('pageerror', (error) => problems.push(`pageerror: ${error.message}`))
      // Every violation the browser reports to the page, whether or not it also logs one.
      await page.exposeFunction('reportViolationToTest', (violation: string) => {
        problems.push(`csp ${violation}`)
      })
      await page.addInitScript(() => {
        document.addEventListener('securitypolicyviolation', (event) => {
          const report = (window as unknown as { reportViolationToTest: (text: string) => void })
            .reportViolationToTest
          report(
            `${event.disposition}: ${event.effectiveDirective} ${event.blockedURI} ${event.sample}`,
          )
        })
      })
      await use(problems)
      expect(problems, 'console errors, warnings and page errors').toEqual([])
    },
    { auto: true },
  ],
})

/** Resolves once React has hydrated the document (the layout marks `<html>`). */
export async function waitForHydration(page: Page) {
  await expect(page.locator('html')).toHaveAttribute('data-hydrated', 'true')
}

/**
 * What `navigator.connection` reports, as a phone on such a connection would: it decides
 * whether pages are loaded ahead (client/runtime/prefetch.ts). Call before `goto`.
 */
export async function reportConnection(
  page: Page,
  connection: { effectiveType: string; saveData?: boolean },
) {
  await page.addInitScript((value) => {
    Object.defineProperty(navigator, 'connection', { value: { saveData: false, ...value } })
  }, connection)
}

/** WCAG 2.2 A/AA and axe's best practices. */
const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice']

/**
 * axe's rules whose outcome depends on the colours: all that can change between the light and
 * the dark theme of one page (the markup, names and structure are the same in both).
 */
const COLOUR_RULES = ['color-contrast', 'link-in-text-block']

const require = createRequire(import.meta.url)

/** axe-core's minified build. */
const AXE_SOURCE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8')

/** HTML_CodeSniffer as pa11y runs it (pa11y's maintained build), a rule set of its own. */
const HTMLCS_SOURCE = readFileSync(
  require.resolve('@pa11y/html_codesniffer/build/HTMLCS.js'),
  'utf8',
)

/**
 * Evaluates an engine's script in the current document unless its entry point is there
 * already: once per page load, not once per run (`@axe-core/playwright` evaluated axe twice a
 * run, 0.3-0.7 s each; docs/testing.md#what-the-test-suites-cover). Evaluated through the DevTools
 * protocol, which the page's CSP does not govern, so the site's CSP stays as it is.
 */
async function injectOnce(page: Page, source: string, isThere: () => boolean) {
  if (!(await page.evaluate(isThere))) await page.evaluate(source)
}

/**
 * axe-core on the current page (only its colour rules when `rules` says so): the list of
 * violations (with their targets) must be empty.
 */
async function expectNoAxeViolations(page: Page, rules: 'all' | 'colour' = 'all') {
  // axe.run() in the page itself (the site has no frames whose results would need merging in
  // another page) and only the violations collected: docs/decisions/axe-in-the-page.md.
  const options: RunOptions = {
    runOnly:
      rules === 'all' ? { type: 'tag', values: AXE_TAGS } : { type: 'rule', values: COLOUR_RULES },
    resultTypes: ['violations'],
  }
  await injectOnce(
    page,
    AXE_SOURCE,
    () => typeof (window as { axe?: { run?: unknown } }).axe?.run === 'function',
  )
  const violations = await page.evaluate(async (runOptions) => {
    const { axe } = window as unknown as {
      axe: { run: (context: Document, options: RunOptions) => Promise<AxeResults> }
    }
    const results = await axe.run(document, runOptions)
    return results.violations.map(
      (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
    )
  }, options)
  expect(violations).toEqual([])
}

/**
 * HTML_CodeSniffer's WCAG 2 AA sniffs on the current page, a second engine beside axe: its
 * errors must be none. Its warnings and notices are things for a person to judge (pa11y
 * reports them only when asked) and are not counted.
 */
async function expectNoHtmlcsErrors(page: Page) {
  await injectOnce(
    page,
    HTMLCS_SOURCE,
    () => typeof (window as { HTMLCS?: { process?: unknown } }).HTMLCS?.process === 'function',
  )
  const errors = await page.evaluate(
    () =>
      new Promise<string[]>((resolve) => {
        type Message = { type: number; code: string; msg: string; element: Element }
        const htmlcs = (
          window as unknown as {
            HTMLCS: {
              process: (standard: string, root: Document, done: () => void) => void
              getMessages: () => Message[]
            }
          }
        ).HTMLCS
        htmlcs.process('WCAG2AA', document, () => {
          resolve(
            htmlcs
              .getMessages()
              .filter((message) => message.type === 1)
              .map((message) => `${message.code}: ${message.element.outerHTML.slice(0, 160)}`),
          )
        })
      }),
  )
  expect(errors, 'HTML_CodeSniffer WCAG2AA errors').toEqual([])
}

/**
 * Both engines on the current page in the light theme, then in the dark one (the same page
 * with the other colour roles), back to light at the end. In the dark theme axe runs only its
 * colour rules: the rest would judge the same markup again
 * (docs/testing.md#what-the-test-suites-cover).
 */
export async function expectAccessibleInBothThemes(page: Page) {
  for (const colorScheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme })
    // Buttons fade their colours (160 ms): judge the colours they end at.
    await page.evaluate(() => Promise.all(document.getAnimations().map((a) => a.finished)))
    await expectNoAxeViolations(page, colorScheme === 'light' ? 'all' : 'colour')
    await expectNoHtmlcsErrors(page)
  }
  await page.emulateMedia({ colorScheme: 'light' })
}

export { expect }
