import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { COMPANY } from '#shared/company.ts'
import { PERSON_PAUSE_MS } from '#tests/helpers/form-token.ts'
import { sampleIn } from '#tests/helpers/metrics.ts'
import { get, texts } from '#tests/helpers/locales.ts'
import { startSite, type SiteProcess } from '#tests/helpers/site-process.ts'
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

/** The outbox of the test server (playwright.config.ts): what it accepted, not yet delivered. */
const OUTBOX = join(import.meta.dirname, '../../test-results/e2e-outbox')

/** Whether the server stored a message with this text (it has no SMTP server: all wait). */
function stored(text: string, outbox = OUTBOX): boolean {
  let names: string[]
  try {
    names = readdirSync(outbox).filter((name) => name.endsWith('.json'))
  } catch {
    return false
  }
  return names.some((name) => {
    try {
      return readFileSync(join(outbox, name), 'utf8').includes(text)
    } catch {
      return false
    }
  })
}

/** As long as a person takes at least from starting on a form to sending it. */
const personPause = (page: Page) => page.waitForTimeout(PERSON_PAUSE_MS)

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

    const message = `We would like to modernize our warehouse software (${path}, ${Date.now()}).`
    await fill(page, locale, hasSubject, message)
    await personPause(page)
    await form.getByRole('button', { name: label(locale, 'submit') }).click()
    await expect(form.getByRole('status')).toHaveText(SUCCESS[locale])
    await expect(form.locator('.field-error')).toHaveCount(0)
    await expect(form.getByLabel(label(locale, 'message'))).toHaveValue('')
    expect(stored(message)).toBe(true)
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
  const message = `Wir möchten unsere Lagersoftware in diesem Jahr modernisieren (${Date.now()}).`
  await page.keyboard.type(message)
  await personPause(page)
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
  expect(stored(message)).toBe(true)
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
    await personPause(page)
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
    await personPause(page)
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

    const text = `Chcemy przenieść nasz system ERP do niemieckiego centrum danych (${Date.now()}).`
    await message.fill(text)
    await form.getByRole('button', { name: label('pl', 'submit') }).click()
    await expect(page).toHaveURL(/\/pl\/contact\?sent=contact$/)
    await expect(page.locator('form.contact-form').getByRole('status')).toHaveText(SUCCESS.pl)
    expect(stored(text)).toBe(true)
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
  // Answered at /api/contact with the form's page, whose address the page then takes.
  await expect(page).toHaveURL(`${baseURL}/de`)
  await waitForHydration(page)
  const form = page.locator('form.contact-form')
  await expect(form.getByRole('alert')).toHaveText(label('de', 'status.foreign'))
  await expect(form.getByLabel(label('de', 'message'))).toHaveValue(message)
  expect(problems).toEqual([expect.stringContaining('status of 403')])
  problems.length = 0
})

/** The spam defence's rejections of one reason so far, as the server counts them. */
async function rejected(page: Page, reason: string): Promise<number> {
  const metrics = await (await page.request.get('/metrics')).text()
  return sampleIn(metrics, `contact_rejected_total{reason="${reason}"}`) ?? 0
}

/**
 * When the server issued a token (`2.<key id>.<kind>.<issued, base 36 ms>.…`,
 * docs/contact.md#spam-defence).
 */
const issuedAt = (token: string) => parseInt(token.split('.')[3] ?? '', 36)

test.describe('a bot', () => {
  // A server of its own whose tokens count as a person's only after a minute: a bot driving
  // a browser waits for the proof of work like the form does, and on a busy machine that can
  // take longer than the 3 s default, which would make its verdict depend on the machine.
  const BOT_PORT = Number(process.env.BOT_E2E_PORT ?? 18350)
  const BOT_ORIGIN = `http://127.0.0.1:${BOT_PORT}`
  const botOutbox = mkdtempSync(join(tmpdir(), 'modernwerk-bot-outbox-'))
  let site: SiteProcess | undefined
  test.beforeAll(async () => {
    site = await startSite(BOT_PORT, { OUTBOX_DIR: botOutbox, CONTACT_TOKEN_MIN_AGE: '1 minute' })
  })
  test.afterAll(async () => {
    await site?.stop()
    rmSync(botOutbox, { recursive: true, force: true })
  })
  test.use({ baseURL: BOT_ORIGIN })

  test('filling the form in a headless Chromium gets the success message; nothing is stored', async ({
    page,
  }) => {
    await page.goto('/contact')
    await waitForHydration(page)
    const message = `Cheap backlinks for your website, order today (${Date.now()}).`
    const before = await rejected(page, 'tooFast')
    const posted = page.waitForRequest(
      (request) => request.url().endsWith('/api/contact') && request.method() === 'POST',
    )
    const started = Date.now()
    // As a script drives a browser: every field set at once, then the form sent.
    await page.evaluate(
      ({ message }) => {
        const form = document.querySelector<HTMLFormElement>('form.contact-form')
        if (!form) throw new Error('no form')
        const values: Record<string, string> = {
          name: 'Best Offers',
          email: 'offers@example.com',
          service: 'other',
          subject: 'Cooperation',
          message,
        }
        for (const [name, value] of Object.entries(values)) {
          const field = form.elements.namedItem(name) as HTMLInputElement
          field.focus()
          field.value = value
          field.dispatchEvent(new Event('input', { bubbles: true }))
        }
        form.requestSubmit()
      },
      { message },
    )
    const post = await posted
    const form = page.locator('form.contact-form')
    await expect(form.getByRole('status')).toHaveText(SUCCESS.en)
    // The server's verdict on that post: its token was younger than this server lets a person
    // fill in a form, so it was dropped as too fast.
    const { token } = post.postDataJSON() as { token: string }
    const age = Date.now() - issuedAt(token)
    console.log(
      `a bot: filled in and sent in ${Date.now() - started} ms (its token ${age} ms old when answered), answered like a person, not stored`,
    )
    expect(await rejected(page, 'tooFast')).toBe(before + 1)
    expect(stored(message, botOutbox)).toBe(false)
  })
})

test.describe('when the token route’s limit is reached', () => {
  // A server of its own with a limit of one message, so four tokens, per 10 seconds.
  const LIMITED_PORT = Number(process.env.LIMITED_E2E_PORT ?? 18352)
  const limitedOutbox = mkdtempSync(join(tmpdir(), 'modernwerk-limited-outbox-'))
  let site: SiteProcess | undefined
  test.beforeAll(async () => {
    site = await startSite(LIMITED_PORT, {
      OUTBOX_DIR: limitedOutbox,
      CONTACT_RATE_MAX: '1',
      CONTACT_RATE_WINDOW: '10 seconds',
    })
  })
  test.afterAll(async () => {
    await site?.stop()
    rmSync(limitedOutbox, { recursive: true, force: true })
  })
  test.use({ baseURL: `http://127.0.0.1:${LIMITED_PORT}` })

  test('the form keeps the text, says when to send again, and sends then; never with the page’s token', async ({
    page,
    problems,
  }) => {
    await page.goto('/contact')
    await waitForHydration(page)
    // Other tabs of this visitor took the window's tokens.
    for (let tab = 0; tab < 4; tab++) {
      const granted = await page.request.get('/api/contact/token?form=contact&locale=en')
      expect(granted.status()).toBe(200)
    }
    const posts: string[] = []
    page.on('request', (request) => {
      if (request.url().endsWith('/api/contact') && request.method() === 'POST') {
        posts.push(request.postData() ?? '')
      }
    })
    const message = `Our warehouse software needs a new home (${Date.now()}).`
    const form = await fill(page, 'en', true, message)
    await personPause(page)
    const submit = form.getByRole('button', { name: label('en', 'submit') })
    await submit.click()
    await expect(form.getByRole('alert')).toHaveText(
      String(get(texts('en', 'common'), 'form.status.rateLimited_one')).replace('{{count}}', '1'),
    )
    await expect(form.getByLabel(label('en', 'message'))).toHaveValue(message)
    // Nothing was posted: a script's post with the page's token would be held back as spam.
    expect(posts).toEqual([])
    // Once the window is over, the form has a new token of its own, solved; sending works.
    await page.waitForTimeout(10_000 + PERSON_PAUSE_MS)
    await submit.click()
    await expect(form.getByRole('status')).toHaveText(SUCCESS.en)
    expect(posts).toHaveLength(1)
    expect(stored(message, limitedOutbox)).toBe(true)
    // The browser reports the 429 answer of the token route; it is what this test provokes.
    expect(problems.every((problem) => /status of 429/.test(problem))).toBe(true)
    problems.length = 0
  })
})

test('the proof of work is solved in this site’s workers while a person types (measured)', async ({
  page,
}) => {
  const workers: string[] = []
  page.on('worker', (worker) => workers.push(worker.url()))
  const requested: string[] = []
  page.on('request', (request) => requested.push(request.url()))
  await page.goto('/contact')
  await waitForHydration(page)
  // Nothing of it in the page's first view: the solver loads when the visitor starts.
  expect(requested.filter((url) => /proof-of-work|pbkdf2|\/api\/contact\/token/.test(url))).toEqual(
    [],
  )
  expect(workers).toEqual([])
  const form = page.locator('form.contact-form')
  const message = `Our warehouse software needs a new home (${Date.now()}).`
  const granted = page.waitForResponse((response) => response.url().includes('/api/contact/token'))
  const name = form.getByLabel(label('en', 'name'))
  await name.click()
  await granted
  const typing = Date.now()
  await name.pressSequentially('Ada Lovelace', { delay: 40 })
  await form.getByLabel(label('en', 'email')).pressSequentially('ada@example.com', { delay: 40 })
  await form.getByLabel(label('en', 'service')).selectOption('other')
  await form.getByLabel(label('en', 'subject')).pressSequentially('Warehouse', { delay: 40 })
  await form.getByLabel(label('en', 'message')).fill(message)
  await personPause(page)
  const typed = Date.now() - typing
  const posted = page.waitForRequest(
    (request) => request.url().endsWith('/api/contact') && request.method() === 'POST',
  )
  await form.getByRole('button', { name: label('en', 'submit') }).click()
  const { proof } = (await posted).postDataJSON() as { proof: string }
  await expect(form.getByRole('status')).toHaveText(SUCCESS.en)
  expect(stored(message)).toBe(true)
  const { solution } = JSON.parse(atob(proof)) as { solution: { counter: number; time: number } }
  // Workers of this site, from its own files: never a blob, never another origin.
  const origin = new URL(test.info().project.use.baseURL ?? '').origin
  expect(workers.length).toBeGreaterThan(0)
  for (const url of workers) expect(url.startsWith(`${origin}/assets/`)).toBe(true)
  console.log(
    `proof of work: solved in ${Math.round(solution.time)} ms by ${workers.length} workers (counter ${solution.counter}) while typing took ${typed} ms`,
  )
})

test('sent before the proof of work is done: the visitor is told to wait, then it is sent', async ({
  page,
}) => {
  // A slow device, as seen from the page: the worker's file takes seconds to arrive.
  await page.route('**/assets/worker-pbkdf2-*.js', async (route) => {
    await new Promise((resolve) => setTimeout(resolve, PERSON_PAUSE_MS + 2_000))
    await route.continue()
  })
  await page.goto('/de/contact')
  await waitForHydration(page)
  const message = `Bitte melden Sie sich wegen unserer Lagerverwaltung (${Date.now()}).`
  const form = await fill(page, 'de', true, message)
  await personPause(page)
  await form.getByRole('button', { name: label('de', 'submit') }).click()
  await expect(form.getByRole('status')).toHaveText(
    String(get(texts('de', 'common'), 'form.status.verifying')),
  )
  await expect(form.getByRole('status')).toHaveText(SUCCESS.de, { timeout: 30_000 })
  expect(stored(message)).toBe(true)
})

test('a browser that cannot do the proof of work is told so, keeps the text, and can send again', async ({
  page,
}) => {
  await page.route('**/assets/worker-pbkdf2-*.js', (route) => route.abort())
  await page.goto('/pl/contact')
  await waitForHydration(page)
  const message = `Prosimy o kontakt w sprawie systemu magazynowego (${Date.now()}).`
  const form = await fill(page, 'pl', true, message)
  await personPause(page)
  const send = form.getByRole('button', { name: label('pl', 'submit') })
  await send.click()
  const failed = String(get(texts('pl', 'common'), 'form.status.proofFailed')).replace(
    '{{email}}',
    COMPANY.email,
  )
  await expect(form.getByRole('alert')).toHaveText(failed)
  await expect(form.getByLabel(label('pl', 'message'))).toHaveValue(message)
  expect(stored(message)).toBe(false)
  // The worker can load again (a network hiccup): the same challenge is solved, and sent.
  await page.unroute('**/assets/worker-pbkdf2-*.js')
  await send.click()
  await expect(form.getByRole('status')).toHaveText(SUCCESS.pl)
  expect(stored(message)).toBe(true)
})
