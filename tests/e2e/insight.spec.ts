import type { APIRequestContext } from '@playwright/test'
import { sumOf } from '#tests/helpers/metrics.ts'
import { expect, reportConnection, test, waitForHydration } from './fixtures.ts'

// Insight (docs/insight.md#insight-which-pages-bring-leads) in a real browser: a page Chromium
// loads as a document counts as one view under its page, locale and source; the site's own loading
// ahead and a navigation inside the site do not (docs/decisions/insight.md); a reload does.

/** The views counted so far of the series whose labels include every one given. */
async function views(request: APIRequestContext, labels: Record<string, string>) {
  return sumOf(await (await request.get('/metrics')).text(), 'page_views_total', labels)
}

test('a document load counts once; loading ahead and navigating inside the site do not', async ({
  page,
}) => {
  // A fast connection: the site then also loads the pages of links in view ahead.
  await reportConnection(page, { effectiveType: '4g' })
  const cookiePolicy = { page: 'cookie-policy', locale: 'pl' }
  const fromXing = { page: 'about', locale: 'pl', source: 'xing' }
  const before = {
    about: await views(page.request, fromXing),
    cookiePolicy: await views(page.request, cookiePolicy),
  }

  const loaded: string[] = []
  page.on('request', (request) => loaded.push(new URL(request.url()).pathname))
  await page.goto('/pl/about', { referer: 'https://www.xing.com/' })
  await waitForHydration(page)
  await expect.poll(() => views(page.request, fromXing)).toBe(before.about + 1)

  // Hover (the site loads the page's code and texts ahead), then follow the link.
  const link = page.locator('footer').getByRole('link', { name: /cookie/i })
  await link.hover()
  await expect
    .poll(() => loaded.some((path) => /^\/assets\/cookies-page-[\w-]+\.js$/.test(path)))
    .toBe(true)
  await link.click()
  await expect(page).toHaveURL(/\/pl\/cookie-policy$/)
  await expect(page.locator('h1')).toBeVisible()
  expect(await views(page.request, cookiePolicy)).toBe(before.cookiePolicy)
  expect(await views(page.request, fromXing)).toBe(before.about + 1)

  // A reload is the document loaded again: a view.
  await page.reload()
  await waitForHydration(page)
  await expect.poll(() => views(page.request, cookiePolicy)).toBe(before.cookiePolicy + 1)
})
