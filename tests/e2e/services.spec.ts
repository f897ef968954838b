import { SERVICES, serviceNamespace, servicePath } from '#shared/services.ts'
import { get, texts } from '#tests/helpers/locales.ts'
import { expect, test, waitForHydration } from './fixtures.ts'

test('every service is reached from the submenu and back, without reloading', async ({ page }) => {
  await page.goto('/')
  await waitForHydration(page)
  await page.evaluate(() => {
    ;(window as unknown as { marker: string }).marker = 'same document'
  })
  const nav = page.getByRole('navigation', { name: 'Main navigation' })
  for (const { slug } of SERVICES) {
    const name = String(get(texts('en', serviceNamespace(slug)), 'card.name'))
    await nav.getByRole('button', { name: 'Show services' }).click()
    await nav.getByRole('link', { name, exact: true }).click()
    await expect(page).toHaveURL(new RegExp(`${servicePath(slug)}$`))
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    await expect(page.getByRole('navigation', { name: 'Breadcrumb' })).toContainText(name)

    await page
      .getByRole('navigation', { name: 'Breadcrumb' })
      .getByRole('link', { name: 'Services' })
      .click()
    await expect(page).toHaveURL(/\/services$/)
    await expect(page.getByRole('heading', { level: 2, name, exact: true })).toBeVisible()
  }
  await nav.getByRole('button', { name: 'Show services' }).click()
  await nav.getByRole('link', { name: 'Services Overview' }).click()
  await expect(page).toHaveURL(/\/services$/)
  expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe(
    'same document',
  )
})

test('Managed IT: each package leads to the contact form with it preselected', async ({ page }) => {
  await page.goto('/de/services/managed-it')
  await waitForHydration(page)
  const buttons = page.getByRole('link', { name: /^Kontakt aufnehmen/ })
  const targets = await page
    .locator('.tier a.button')
    .evaluateAll((links) => links.map((link) => link.getAttribute('href')))
  expect(targets).toEqual([
    '/de/contact?service=managed&plan=base',
    '/de/contact?service=managed&plan=standard',
    '/de/contact?service=managed&plan=enterprise',
  ])
  await expect(buttons).toHaveCount(3)
  await expect(page.locator('.tier-recommended')).toContainText('Empfohlen')
})

test('the FAQ opens by keyboard', async ({ page }) => {
  await page.goto('/pl/services/api-integration')
  await waitForHydration(page)
  const first = page.locator('.faq-item').first()
  await first.locator('summary').focus()
  await page.keyboard.press('Enter')
  await expect(first).toHaveAttribute('open', '')
  await expect(first.locator('p')).toBeVisible()
})

test('a campaign link opens the page it names: kept pages hydrate with the query they ignore or read', async ({
  page,
}) => {
  // Twice each: the first answer is rendered, the second comes from the page cache.
  for (let visit = 0; visit < 2; visit++) {
    await page.goto('/de/contact?utm_source=newsletter&service=managed&plan=standard&gclid=x')
    await waitForHydration(page)
    await expect(page.locator('select[name="service"]')).toHaveValue('managed')
    await expect(page.locator('select[name="plan"]')).toHaveValue('standard')
    await page.goto('/de/about?utm_source=linkedin&utm_campaign=winter')
    await waitForHydration(page)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  }
})
