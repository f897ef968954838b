import { TEAM } from '#shared/team.ts'
import { get, texts } from '#tests/helpers/locales.ts'
import { expect, test, waitForHydration } from './fixtures.ts'

test('about → Read more → profile, and on to the other co-founder', async ({ page }) => {
  await page.goto('/about')
  await waitForHydration(page)
  const [first, second] = TEAM
  const readMore = String(get(texts('en', 'about'), 'team.readMore'))
  await page.getByRole('link', { name: new RegExp(`^${readMore}\\W+${first.name}$`) }).click()
  await expect(page).toHaveURL(new RegExp(`/team/${first.slug}$`))
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(first.name)
  await expect(page.getByRole('img', { name: first.name })).toBeVisible()
  await page.getByRole('link', { name: new RegExp(`^${readMore}\\W+${second.name}$`) }).click()
  await expect(page.getByRole('heading', { level: 1 })).toHaveText(second.name)
})

test('a Contact Us of Managed IT opens the contact form with the service and package chosen', async ({
  page,
}) => {
  await page.goto('/pl/services/managed-it')
  await waitForHydration(page)
  await page.locator('.tier-recommended').getByRole('link').click()
  await expect(page).toHaveURL(/\/pl\/contact\?service=managed&plan=standard$/)
  await expect(page.getByRole('combobox', { name: 'Interesująca Państwa usługa' })).toHaveValue(
    'managed',
  )
  // The package is shown, and the visitor can change it or set it back to none.
  const plan = page.locator('select[name="plan"]')
  await expect(plan).toHaveValue('standard')
  await plan.selectOption('enterprise')
  await expect(plan).toHaveValue('enterprise')
  await plan.selectOption('')
  await expect(plan).toHaveValue('')
})

test('the terms table of contents jumps to a section', async ({ page }) => {
  await page.goto('/de/terms-of-service')
  await waitForHydration(page)
  const toc = page.getByRole('navigation', { name: 'Inhalt' })
  await expect(toc.getByRole('link')).toHaveCount(14)
  await toc.getByRole('link').nth(4).click()
  await expect(page).toHaveURL(/#billing$/)
  await expect(page.locator('#billing h2')).toBeInViewport()
})
