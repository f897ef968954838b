import type { Page } from '@playwright/test'
import { get, texts } from '#tests/helpers/locales.ts'
import { expect, test, waitForHydration } from './fixtures.ts'

const FAILING = `http://127.0.0.1:${process.env.E2E_FAILING_PORT ?? 18302}`

const SUCCESS = {
  en: 'Thank you! Your message has been sent successfully.',
  de: 'Vielen Dank! Ihre Nachricht wurde erfolgreich gesendet.',
  pl: 'Dziękujemy! Wiadomość została wysłana.',
} as const

const FORMS = [
  { locale: 'en', path: '/contact', hasSubject: true },
  { locale: 'de', path: '/de/contact', hasSubject: true },
  { locale: 'pl', path: '/pl/contact', hasSubject: true },
  { locale: 'en', path: '/', hasSubject: false },
  { locale: 'de', path: '/de', hasSubject: false },
  { locale: 'pl', path: '/pl', hasSubject: false },
] as const

function label(locale: 'en' | 'de' | 'pl', key: string) {
  return String(get(texts(locale, 'common'), `form.${key}`))
}

async function fill(
  page: Page,
  locale: 'en' | 'de' | 'pl',
  hasSubject: boolean,
  message = 'We would like to modernize our warehouse software this year.',
) {
  const form = page.locator('form.contact-form')
  await form.getByLabel(label(locale, 'name')).fill('Ada Lovelace')
  await form.getByLabel(label(locale, 'email')).fill('ada@example.com')
  await form.getByLabel(label(locale, 'service')).selectOption('other')
  if (hasSubject) await form.getByLabel(label(locale, 'subject')).fill('Warehouse software')
  await form.getByLabel(label(locale, 'message')).fill(message)
  return form
}

for (const { locale, path, hasSubject } of FORMS) {
  test(`${path}: field errors, then success`, async ({ page }) => {
    await page.goto(path)
    await waitForHydration(page)
    const form = page.locator('form.contact-form')
    await form.getByRole('button', { name: label(locale, 'submit') }).click()

    const name = form.getByLabel(label(locale, 'name'))
    await expect(name).toBeFocused()
    await expect(name).toHaveAttribute('aria-invalid', 'true')
    const describedBy = await name.getAttribute('aria-describedby')
    await expect(page.locator(`[id="${describedBy}"]`)).toHaveText(
      String(get(texts(locale, 'common'), 'form.errors.required')),
    )
    await expect(form.locator('.field-error')).toHaveCount(hasSubject ? 5 : 4)

    await fill(page, locale, hasSubject)
    await form.getByRole('button', { name: label(locale, 'submit') }).click()
    await expect(form.getByRole('status')).toHaveText(SUCCESS[locale])
    await expect(form.locator('.field-error')).toHaveCount(0)
    await expect(form.getByLabel(label(locale, 'message'))).toHaveValue('')
  })
}

test('keyboard only: skip link, errors, a correction, then success (/de/contact)', async ({
  page,
}) => {
  await page.goto('/de/contact')
  await waitForHydration(page)
  const form = page.locator('form.contact-form')
  const focused = () =>
    page.evaluate(() => {
      const element = document.activeElement
      return {
        name: element?.getAttribute('name') ?? '',
        tag: element?.tagName.toLowerCase() ?? '',
        type: element?.getAttribute('type') ?? '',
      }
    })
  /** Tabs forward until the control named `name` (or the submit button) has focus. */
  async function tabTo(target: string) {
    for (let step = 0; step < 80; step++) {
      const now = await focused()
      if (now.name === target || (target === 'submit' && now.type === 'submit')) return
      await page.keyboard.press('Tab')
    }
    throw new Error(`${target} never received focus by Tab`)
  }

  // The skip link first, then into the main content and on to the form.
  await page.keyboard.press('Tab')
  await expect(page.locator('.skip-link')).toBeFocused()
  await page.keyboard.press('Enter')
  await expect(page.locator('main#main')).toBeFocused()
  await tabTo('submit')
  await page.keyboard.press('Enter')
  // The errors: focus on the first field in error, its message tied to it.
  const name = form.getByLabel(label('de', 'name'))
  await expect(name).toBeFocused()
  await expect(name).toHaveAttribute('aria-invalid', 'true')
  await expect(form.locator('.field-error').first()).toHaveText(
    String(get(texts('de', 'common'), 'form.errors.required')),
  )

  // Filled in by keyboard alone, with a mistake in the address.
  await page.keyboard.type('Ada Lovelace')
  await tabTo('email')
  await page.keyboard.type('ada@example')
  await tabTo('service')
  await page.keyboard.press('ArrowDown')
  await expect(form.getByLabel(label('de', 'service'))).not.toHaveValue('')
  await tabTo('subject')
  await page.keyboard.type('Lagersoftware')
  await tabTo('message')
  await page.keyboard.type('Wir möchten unsere Lagersoftware in diesem Jahr modernisieren.')
  await tabTo('submit')
  await page.keyboard.press('Enter')
  const email = form.getByLabel(label('de', 'email'))
  await expect(email).toBeFocused()
  await expect(email).toHaveAttribute('aria-invalid', 'true')
  await expect(page.locator(`[id="${await email.getAttribute('aria-describedby')}"]`)).toHaveText(
    String(get(texts('de', 'common'), 'form.errors.invalidEmail')),
  )

  // The correction, then Enter in the field sends the form.
  await page.keyboard.press('End')
  await page.keyboard.type('.de')
  await page.keyboard.press('Enter')
  await expect(form.getByRole('status')).toHaveText(SUCCESS.de)
  await expect(form.locator('.field-error')).toHaveCount(0)
})

test.describe('when the server cannot store messages', () => {
  test.use({ baseURL: FAILING })

  test('the error keeps the input, and the third try is rate limited', async ({
    page,
    problems,
  }) => {
    await page.goto('/de/contact')
    await waitForHydration(page)
    const form = await fill(page, 'de', true)
    const submit = form.getByRole('button', { name: label('de', 'submit') })
    await submit.click()
    await expect(form.getByRole('alert')).toHaveText(
      String(get(texts('de', 'common'), 'form.status.error')),
    )
    await expect(form.getByLabel(label('de', 'name'))).toHaveValue('Ada Lovelace')
    await submit.click()
    await expect(form.getByRole('alert')).toHaveText(
      String(get(texts('de', 'common'), 'form.status.error')),
    )
    await submit.click()
    await expect(form.getByRole('alert')).toContainText('Zu viele Nachrichten')
    await expect(form.getByRole('alert')).toContainText('15 Minuten')
    await expect(form.getByLabel(label('de', 'message'))).not.toHaveValue('')
    // The browser reports the 503 and 429 answers; they are what this test provokes.
    expect(problems.every((problem) => /status of (503|429)/.test(problem))).toBe(true)
    problems.length = 0
  })
})

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('a plain post shows its errors with the input, then the success message', async ({
    page,
    problems,
  }) => {
    await page.goto('/pl/contact')
    const form = await fill(page, 'pl', true, 'Za krótko')
    await form.getByRole('button', { name: label('pl', 'submit') }).click()
    await expect(page).toHaveURL(/\/api\/contact$/)
    const message = form.getByLabel(label('pl', 'message'))
    await expect(message).toHaveValue('Za krótko')
    await expect(message).toHaveAttribute('aria-invalid', 'true')
    // The message's own limit, in the words of the Polish texts.
    await expect(form.locator('.field-error')).toHaveText(
      label('pl', 'errors.tooShort').replace('{{min}}', '10'),
    )
    expect(problems).toEqual([expect.stringContaining('status of 400')])
    problems.length = 0

    await message.fill('Chcemy przenieść nasz system ERP do niemieckiego centrum danych.')
    await form.getByRole('button', { name: label('pl', 'submit') }).click()
    await expect(page).toHaveURL(/\/pl\/contact\?sent=contact$/)
    await expect(page.locator('form.contact-form').getByRole('status')).toHaveText(SUCCESS.pl)
  })
})

test('a post from another site comes back as this site’s form, saying why, with the text kept', async ({
  page,
  baseURL,
  problems,
}) => {
  const message = 'Wir möchten unser Warenwirtschaftssystem modernisieren.'
  const fields = { name: 'Ada Lovelace', email: 'ada@example.com', service: 'other', message }
  // A page of no origin of ours (about:blank): the browser sends `Sec-Fetch-Site: cross-site`.
  await page.setContent(
    `<form method="post" action="${baseURL}/api/contact">
      <input type="hidden" name="form" value="home"><input type="hidden" name="locale" value="de">
      ${Object.entries(fields)
        .map(([name, value]) => `<input type="hidden" name="${name}" value="${value}">`)
        .join('')}
      <button>Send</button>
    </form>`,
  )
  await page.getByRole('button', { name: 'Send' }).click()
  await expect(page).toHaveURL(`${baseURL}/api/contact`)
  const form = page.locator('form.contact-form')
  await expect(form.getByRole('alert')).toHaveText(label('de', 'status.foreign'))
  await expect(form.getByLabel(label('de', 'message'))).toHaveValue(message)
  expect(problems).toEqual([expect.stringContaining('status of 403')])
  problems.length = 0
})
