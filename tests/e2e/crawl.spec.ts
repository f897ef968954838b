import { LOCALIZED_PAGES } from '#shared/pages.ts'
import { cutOffContent } from '#tests/helpers/reflow.ts'
import { expect, expectAccessibleInBothThemes, test, waitForHydration } from './fixtures.ts'
import { ONE_PAGE_PER_LAYOUT } from './page-layouts.ts'
import { crowdedSmallTargets, focusProblems, setTextSpacing } from './wcag-checks.ts'

// The whole site in Chromium: every page in every language (LOCALIZED_PAGES). Each must
// hydrate with zero console errors and zero off-origin requests (the fixtures fail the test
// otherwise), load every subresource, pass axe-core and HTML_CodeSniffer (WCAG2AA) in the
// light and the dark theme, have one h1, reflow at 320 CSS px (WCAG 1.4.10: the words differ per page, so
// every page, not one per layout), and every internal link it shows must answer 200 itself
// (no redirect, no 404).
//
// One page of every layout in every language (from the route table) also gets the
// WCAG 2.2 checks the engines do not make, on the load the crawl made anyway: focus not
// obscured and visible at 1280×720, reflow with the menu and its submenu open, target size and
// text spacing at 375 and 1280 px (wcag-checks.ts; docs/testing.md#what-the-test-suites-cover).

// The tests of a worker share one browser context and page, which Playwright resets between
// them (cookies, cache, storage, routes, the fixtures' bindings, emulation, the mouse): every
// test still opens its page by a full load, but no context and page are made for each
// (docs/decisions/one-page-per-worker.md).
test.use({ reuseContext: true })

// About 13 s a page on an idle machine (both engines in both themes, then its links): a
// busy one (CI's two cores shared with other jobs) needs more than the 30 s default.
test.describe.configure({ timeout: 90_000 })

/** Links checked once per worker: the header and footer repeat on every page. */
const checkedLinks = new Map<string, number>()

for (const { path } of LOCALIZED_PAGES) {
  const isLayoutSample = ONE_PAGE_PER_LAYOUT.some((entry) => entry.path === path)
  const title = isLayoutSample
    ? `crawl ${path}, with focus, target size and text spacing of its layout`
    : `crawl ${path}`
  test(title, async ({ page, request, baseURL }) => {
    const origin = new URL(baseURL ?? 'http://127.0.0.1').origin
    const failed: string[] = []
    page.on('requestfailed', (failure) => {
      failed.push(`${failure.url()}: ${failure.failure()?.errorText ?? 'failed'}`)
    })
    page.on('response', (response) => {
      if (response.status() >= 400) failed.push(`${response.url()}: ${response.status()}`)
    })

    const response = await page.goto(path)
    expect(response?.status()).toBe(200)
    await waitForHydration(page)
    await page.evaluate(() => document.fonts.ready)
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1)
    await test.step('axe-core and HTML_CodeSniffer in both themes', () =>
      expectAccessibleInBothThemes(page))

    if (isLayoutSample) {
      await test.step('every focus stop in view, below the sticky header, visibly marked', async () => {
        const { stops, problems } = await focusProblems(page)
        expect(problems).toEqual([])
        expect(stops).toBeGreaterThan(8)
      })
      // Back to the top, as a page opens: the walk ended at its foot, where the sticky header
      // lies over the content and its targets would count as neighbours of what is under it.
      await page.evaluate(() => scrollTo(0, 0))
    }

    const viewport = page.viewportSize()
    await page.setViewportSize({ width: 320, height: 640 })
    await test.step('reflows at 320 CSS px: no sideways scrolling, nothing cut off', async () => {
      expect(await page.evaluate(cutOffContent), 'at 320 CSS px').toEqual([])
      if (!isLayoutSample) return
      await page.locator('.menu-toggle').click()
      await expect(page.locator('.site-nav')).toBeVisible()
      const toggle = page.locator('.submenu-toggle')
      if (await toggle.isVisible()) await toggle.click()
      expect(await page.evaluate(cutOffContent), 'menu open').toEqual([])
      await page.locator('.menu-toggle').click()
    })
    if (isLayoutSample) {
      for (const width of [375, 1280]) {
        await test.step(`${width} px: targets of 24×24 px or spaced; text spacing cuts nothing`, async () => {
          await page.setViewportSize({ width, height: 800 })
          expect(await crowdedSmallTargets(page), 'small targets').toEqual([])
          await setTextSpacing(page, true)
          expect(await page.evaluate(cutOffContent), 'with text spacing').toEqual([])
          await setTextSpacing(page, false)
        })
      }
    }
    if (viewport) await page.setViewportSize(viewport)

    const hrefs = await page
      .locator('a[href]')
      .evaluateAll((anchors) => anchors.map((anchor) => (anchor as HTMLAnchorElement).href))
    const internal = new Set(
      hrefs
        .map((href) => new URL(href))
        .filter((url) => url.origin === origin)
        .map((url) => `${url.pathname}${url.search}`),
    )
    expect(internal.size, 'internal links on the page').toBeGreaterThan(5)
    for (const link of internal) {
      if (!checkedLinks.has(link)) {
        const answer = await request.get(link, { maxRedirects: 0 })
        checkedLinks.set(link, answer.status())
      }
      expect(checkedLinks.get(link), `link ${link} on ${path}`).toBe(200)
    }
    expect(failed, 'failed requests').toEqual([])
  })
}
