import { expect, test, waitForHydration } from './fixtures.ts'

const PAGES = [
  '/',
  '/de/services/security-compliance',
  '/pl/about',
  '/team/katarzyna-nowak',
  '/de/contact',
  '/pl/terms-of-service',
  '/de/gibt-es-nicht',
]

test('pages run under the strict CSP with zero violations', async ({ page, problems }) => {
  // Installed before any page script: records every violation the browser reports.
  await page.addInitScript(() => {
    const seen: string[] = []
    ;(window as unknown as { cspViolations: string[] }).cspViolations = seen
    document.addEventListener('securitypolicyviolation', (event) => {
      seen.push(`${event.violatedDirective} ${event.blockedURI}`)
    })
  })
  for (const path of PAGES) {
    const response = await page.goto(path)
    expect(response?.headers()['content-security-policy']).toContain("script-src 'self'")
    await waitForHydration(page)
    // Navigate in the app too: lazy chunks and their styles load under the same policy.
    await page.getByRole('navigation', { name: /./ }).first().getByRole('link').first().click()
    await waitForHydration(page)
    expect(
      await page.evaluate(() => (window as unknown as { cspViolations: string[] }).cspViolations),
      path,
    ).toEqual([])
  }
  // The 404 page's own status is expected; nothing else may have been reported.
  expect(problems.filter((problem) => !/status of 404/.test(problem))).toEqual([])
  problems.length = 0
})
