import { LOCALES } from '#shared/locales.ts'
import { LOCALIZED_PAGES } from '#shared/pages.ts'
import { TRUSTED_TYPES_POLICIES } from '#shared/trusted-types.ts'
import { rawHtmlAttempts } from '#tests/helpers/trusted-types.ts'
import { expect, test, waitForHydration } from './fixtures.ts'

// The policy is enforced, Trusted Types included (docs/decisions/trusted-types.md). The
// `problems` fixture fails any test in which the browser reports a violation, so every
// browser test (the form's submissions, navigations, the crawl of all pages) runs under it;
// these tests walk every page by the app's own navigation and show that the policy bites.

test('every page, reached by the app’s own navigation, runs under the policy with zero violations', async ({
  page,
  problems,
}) => {
  // 49 pages, each hydrated: about a minute on an idle machine, more on a busy one.
  test.setTimeout(300_000)
  const response = await page.goto('/')
  const policy = response?.headers()['content-security-policy'] ?? ''
  expect(policy).toContain("script-src 'self'")
  expect(policy).toContain("require-trusted-types-for 'script'")
  expect(policy).toContain(`trusted-types ${Object.values(TRUSTED_TYPES_POLICIES).join(' ')}`)
  await waitForHydration(page)

  // Each page is opened through a link on the page before it where there is one, so its
  // route's chunks, texts and styles load under the policy in the running app.
  let inApp = 0
  for (const locale of LOCALES) {
    for (const { path } of LOCALIZED_PAGES.filter((entry) => entry.locale === locale)) {
      if (new URL(page.url()).pathname === path) continue
      const link = page.locator(`a[href="${path}"]`).first()
      if (await link.isVisible()) {
        await link.click()
        await expect(page).toHaveURL((url) => url.pathname === path)
        inApp += 1
      } else {
        await page.goto(path)
      }
      await waitForHydration(page)
      await expect(page.getByRole('heading', { level: 1 })).toHaveCount(1)
      expect(problems, path).toEqual([])
    }
  }
  // Most pages are linked from the one before them in the table (menu, footer, lists).
  expect(inApp).toBeGreaterThan(LOCALIZED_PAGES.length / 2)

  // The error page too; its own 404 status is expected, nothing else.
  await page.goto('/de/gibt-es-nicht')
  await waitForHydration(page)
  expect(problems.filter((problem) => !/status of 404/.test(problem))).toEqual([])
  problems.length = 0
})

test('a raw HTML string written into the page is refused and reported', async ({
  page,
  problems,
}) => {
  await page.goto('/de/contact')
  await waitForHydration(page)
  const outcome = await page.evaluate(rawHtmlAttempts)
  expect(outcome).toEqual({
    supported: true,
    attempts: ['innerHTML: TypeError', 'policy: TypeError'],
    children: 0,
  })
  // The browser reported both.
  await expect
    .poll(() =>
      problems.filter((problem) => problem.startsWith('csp enforce: ')).map((p) => p.split(' ')[2]),
    )
    .toEqual(['require-trusted-types-for', 'trusted-types'])
  problems.length = 0
})
