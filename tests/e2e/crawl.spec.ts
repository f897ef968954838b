import { LOCALIZED_PAGES } from '#shared/pages.ts'
import { cutOffContent } from '#tests/helpers/reflow.ts'
import { expect, expectAccessibleInBothThemes, test, waitForHydration } from './fixtures.ts'

// The whole site in Chromium: all 48 pages (16 routes × 3 locales). Each must hydrate with
// zero console errors and zero off-origin requests (the fixtures fail the test otherwise),
// load every subresource, pass axe-core and HTML_CodeSniffer (WCAG2AA) in the light and the
// dark theme, have one h1, reflow at 320 CSS px (WCAG 1.4.10: the words differ per page, so
// every page, not one per layout), and every internal link it shows must answer 200 itself
// (no redirect, no 404).

// About 13 s a page on an idle machine (both engines in both themes, then its links): a
// busy one (CI's two cores shared with other jobs) needs more than the 30 s default.
test.describe.configure({ timeout: 90_000 })

/** Links checked once per worker: the header and footer repeat on every page. */
const checkedLinks = new Map<string, number>()

for (const { path } of LOCALIZED_PAGES) {
  test(`crawl ${path}`, async ({ page, request, baseURL }) => {
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
    await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1)
    await expectAccessibleInBothThemes(page)

    const viewport = page.viewportSize()
    await page.setViewportSize({ width: 320, height: 640 })
    expect(await page.evaluate(cutOffContent), 'at 320 CSS px').toEqual([])
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
