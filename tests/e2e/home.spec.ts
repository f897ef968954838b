import { FEATURES, PARTNERS, STATS, TESTIMONIALS } from '#shared/home.ts'
import { SERVICES } from '#shared/services.ts'
import { get, texts } from '#tests/helpers/locales.ts'
import { expect, expectAccessibleInBothThemes, test, waitForHydration } from './fixtures.ts'

const HOME = [
  {
    path: '/',
    lang: 'en',
    heading: /Modern IT that works for your business/,
    cta: 'Start your modernization',
  },
  { path: '/de', lang: 'de', heading: /Moderne IT/, cta: 'Modernisierung starten' },
  { path: '/pl', lang: 'pl', heading: /Nowoczesne IT/, cta: 'Pierwszy krok do modernizacji' },
] as const

for (const { path, lang, heading, cta } of HOME) {
  test(`home page ${path} hydrates cleanly in ${lang}`, async ({ page }) => {
    await page.goto(path)
    await waitForHydration(page)
    await expect(page.locator('html')).toHaveAttribute('lang', lang)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(heading)
    await expect(page.getByRole('link', { name: cta })).toBeVisible()
    // The whole home page, as its tables declare it: partner banner, features, stats, services,
    // testimonials and the contact form.
    await expect(page.locator('.partner-wordmark')).toHaveCount(PARTNERS.length)
    await expect(page.locator('.feature-card')).toHaveCount(FEATURES.length)
    await expect(page.locator('.stat')).toHaveCount(STATS.length)
    await expect(page.locator('.service-card')).toHaveCount(SERVICES.length)
    await expect(page.locator('.testimonial')).toHaveCount(TESTIMONIALS.length)
    await expect(page.locator('form[action="/api/contact"][method="post"]')).toBeVisible()
  })
}

test('the 404 page passes axe and HTML_CodeSniffer in every language and both themes', async ({
  page,
  problems,
}) => {
  // Three pages through both engines in both themes: as long as a crawl test, and on a busy
  // machine more than the 30 s default.
  test.setTimeout(90_000)
  for (const path of ['/gibt-es-nicht', '/pl/nie-ma']) {
    await page.goto(path)
    await waitForHydration(page)
    await expectAccessibleInBothThemes(page)
    expect(problems).toEqual([expect.stringContaining('status of 404')])
    problems.length = 0
  }
  await page.goto('/de/gibt-es-nicht')
  await waitForHydration(page)
  // The browser reports the document's own 404 status; that is the point here.
  expect(problems).toEqual([expect.stringContaining('status of 404')])
  problems.length = 0
  await expect(page.getByRole('heading', { level: 1 })).toHaveText('Seite nicht gefunden')
  await expectAccessibleInBothThemes(page)
})

test('navigates between pages in the browser without reloading the document', async ({ page }) => {
  await page.goto('/de')
  await waitForHydration(page)
  await page.evaluate(() => {
    ;(window as unknown as { marker: string }).marker = 'still here'
  })

  await page
    .getByRole('navigation', { name: 'Hauptnavigation' })
    .getByRole('link', { name: 'Über uns' })
    .click()
  await expect(page).toHaveURL(/\/de\/about$/)
  const about = texts('de', 'about')
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(String(get(about, 'hero.title')))
  await expect(page).toHaveTitle(
    String(get(about, 'meta.title')).replace('{{brand}}', 'Modernwerk'),
  )

  await page.getByRole('link', { name: 'Modernwerk, zur Startseite' }).first().click()
  await expect(page).toHaveURL(/\/de$/)
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(/Moderne IT/)
  await expect(page).toHaveTitle(/IT-Modernisierung/)
  expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe(
    'still here',
  )
})

test('the language switcher leads to the same page in another language', async ({ page }) => {
  await page.goto('/')
  await waitForHydration(page)
  const switcher = page
    .getByRole('navigation', { name: 'Main navigation' })
    .getByRole('list', { name: 'Choose language' })
  await switcher.getByRole('link', { name: 'Polski' }).click()
  await expect(page).toHaveURL(/\/pl$/)
  await expect(page.locator('html')).toHaveAttribute('lang', 'pl')
  await waitForHydration(page)
})

test.describe('on a phone', () => {
  test.use({ viewport: { width: 375, height: 740 }, hasTouch: true, isMobile: true })

  test('the menu opens and closes by keyboard', async ({ page }) => {
    await page.goto('/')
    await waitForHydration(page)
    const nav = page.getByRole('navigation', { name: 'Main navigation' })
    const toggle = page.getByRole('button', { name: 'Open menu' })
    await expect(nav).toBeHidden()

    await toggle.focus()
    await page.keyboard.press('Enter')
    await expect(nav).toBeVisible()
    await expect(page.getByRole('button', { name: 'Close menu' })).toHaveAttribute(
      'aria-expanded',
      'true',
    )

    // The services submenu inside opens with the keyboard too.
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    await page.keyboard.press('Tab')
    await expect(page.getByRole('button', { name: 'Show services' })).toBeFocused()
    await page.keyboard.press('Enter')
    await expect(nav.getByRole('link', { name: 'Cloud Infrastructure' })).toBeVisible()
    await page.keyboard.press('Escape')
    await expect(nav.getByRole('link', { name: 'Cloud Infrastructure' })).toBeHidden()
    await expect(page.getByRole('button', { name: 'Show services' })).toBeFocused()

    await page.keyboard.press('Escape')
    await expect(nav).toBeHidden()
    await expect(page.getByRole('button', { name: 'Open menu' })).toBeFocused()
  })

  test('the menu opens by touch and closes after choosing a page', async ({ page }) => {
    await page.goto('/pl')
    await waitForHydration(page)
    await page.getByRole('button', { name: 'Otwórz menu' }).tap()
    const nav = page.getByRole('navigation', { name: 'Nawigacja główna' })
    await expect(nav).toBeVisible()
    await nav.getByRole('link', { name: 'Kontakt' }).tap()
    await expect(page).toHaveURL(/\/pl\/contact$/)
    await expect(nav).toBeHidden()
  })
})
