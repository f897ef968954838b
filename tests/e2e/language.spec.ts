import { expect, test, waitForHydration } from './fixtures.ts'

test.describe('a German browser', () => {
  test.use({ locale: 'de-DE' })

  test('is sent to /de first, and after choosing English stays English', async ({
    page,
    context,
  }) => {
    await page.goto('/')
    await expect(page).toHaveURL(/\/de$/)
    expect(await context.cookies()).toEqual([])

    await page.goto('/de/about')
    await waitForHydration(page)
    const before = Date.now() / 1000
    await page
      .getByRole('navigation', { name: 'Hauptnavigation' })
      .getByRole('link', { name: 'English' })
      .click()
    await expect(page).toHaveURL(/\/about$/)
    await expect(page.locator('html')).toHaveAttribute('lang', 'en')

    const [cookie] = await context.cookies()
    expect(cookie).toMatchObject({
      name: 'i18n_redirected',
      value: 'en',
      path: '/',
      sameSite: 'Lax',
      secure: false,
      httpOnly: false,
    })
    const lifetime = (cookie?.expires ?? 0) - before
    expect(lifetime).toBeGreaterThan(365 * 86_400 - 60)
    expect(lifetime).toBeLessThan(365 * 86_400 + 60)

    // The cookie wins over the browser's German Accept-Language.
    await page.goto('/')
    await expect(page).toHaveURL(/127\.0\.0\.1:\d+\/$/)
    await expect(page.locator('html')).toHaveAttribute('lang', 'en')
  })
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('the switcher still leads to the same page in another language', async ({ page }) => {
    await page.goto('/pl/services/cloud-infrastructure')
    await page
      .getByRole('navigation', { name: 'Nawigacja główna' })
      .getByRole('link', { name: 'Deutsch' })
      .click()
    await expect(page).toHaveURL(/\/de\/services\/cloud-infrastructure$/)
    await expect(page.locator('html')).toHaveAttribute('lang', 'de')
  })
})

test.describe('Polish plural forms', () => {
  // "15 minut" is Polish's "many" form (2–4 take "minuty", 1 "minutę"): written by i18next on
  // the server for the first view and by i18next in the browser after a client-side navigation.
  const SENTENCE = /z[\s\u00a0]licznikami przez 15[\s\u00a0]minut, a[\s\u00a0]następnie usuwany/

  test('the privacy policy says "15 minut", from the server and after navigating in the page', async ({
    page,
  }) => {
    await page.goto('/pl/privacy-policy')
    await expect(page.getByText(SENTENCE)).toBeVisible()

    await page.goto('/pl')
    await waitForHydration(page)
    // A mark on the window that a full page load would lose: the page below is the browser's.
    await page.evaluate(() => Object.assign(window, { samePage: true }))
    await page.getByRole('contentinfo').getByRole('link', { name: 'Polityka prywatności' }).click()
    await expect(page).toHaveURL(/\/pl\/privacy-policy$/)
    await expect(page.getByText(SENTENCE)).toBeVisible()
    expect(await page.evaluate(() => 'samePage' in window)).toBe(true)
  })
})
