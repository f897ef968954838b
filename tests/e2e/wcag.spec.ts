import type { Page } from '@playwright/test'
import { expect, test, waitForHydration } from './fixtures.ts'
import { ONE_PAGE_PER_LAYOUT } from './page-layouts.ts'
import { movingElements } from '#tests/helpers/motion.ts'
import { cutOffContent as cutOffContentInPage } from '#tests/helpers/reflow.ts'

// WCAG 2.2 AA checks that axe and HTML_CodeSniffer do not make and that need a page load of
// their own: reduced motion (2.3.3) on one page of every layout, the skip link (2.4.1) and
// 200 % zoom (1.4.4, 1.4.10). Focus, reflow with the menu open, target size and text spacing
// are checked on one page of every layout in every language by the crawl, on the load it makes
// anyway (crawl.spec.ts, wcag-checks.ts).

// One context and page for the worker's tests, reset between them (crawl.spec.ts,
// docs/decisions/one-page-per-worker.md).
test.use({ reuseContext: true })

async function open(page: Page, path: string, width: number, height = 800) {
  await page.setViewportSize({ width, height })
  await page.goto(path)
  await waitForHydration(page)
  await page.evaluate(() => document.fonts.ready)
}

/** What `cutOffContentInPage` finds on the page as it is now. */
function cutOffContent(page: Page): Promise<string[]> {
  return page.evaluate(cutOffContentInPage)
}

// Motion does not depend on the language: once per layout, each page loaded with reduced motion
// as a visitor's system asks for it.
for (const { path, page: entry } of ONE_PAGE_PER_LAYOUT.filter(({ locale }) => locale === 'en')) {
  test(`${path} (${entry.screen}) runs no animation or transition with reduced motion`, async ({
    page,
  }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await open(page, path, 1280)
    // Hover what moves when motion is allowed: buttons, cards, menu links.
    for (const selector of ['main .button', 'main .service-card', '.site-nav a']) {
      const target = page.locator(selector).first()
      // Hovering waits for the target to be stable: generous for a busy machine.
      if (await target.isVisible()) await target.hover({ timeout: 15_000 })
    }
    const moving = await page.evaluate(movingElements)
    expect(moving).toEqual([])
  })
}

test('a skip link is the first stop and moves focus to the main content', async ({ page }) => {
  await open(page, '/de/services', 1280)
  await page.keyboard.press('Tab')
  const skip = page.locator('.skip-link')
  await expect(skip).toBeFocused()
  await expect(skip).toBeInViewport()
  await page.keyboard.press('Enter')
  await expect(page.locator('main#main')).toBeFocused()
  await page.keyboard.press('Tab')
  expect(await page.evaluate(() => document.activeElement?.closest('main') !== null)).toBe(true)
})

test('at 200 % zoom (640×400 CSS px on a 1280×800 window) nothing is lost', async ({ page }) => {
  for (const path of ['/de', '/de/contact', '/pl/services/security-compliance']) {
    await open(page, path, 640, 400)
    expect(await cutOffContent(page), path).toEqual([])
    // The sticky header leaves most of the window to the content.
    const header = await page.locator('.site-header').boundingBox()
    expect(header?.height ?? 0, path).toBeLessThan(400 / 3)
  }
})
