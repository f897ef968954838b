import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Page } from '@playwright/test'
import { PERSON_PAUSE_MS } from '#tests/helpers/form-token.ts'
import { get, texts } from '#tests/helpers/locales.ts'
import { NGINX } from '#tests/helpers/nginx.ts'
import { hasRedisServer, startRedis } from '#tests/helpers/redis.ts'
import { startSite, type SiteProcess } from '#tests/helpers/site-process.ts'
import { startSmtpServer } from '#tests/helpers/smtp.ts'
import { startCluster } from '#tests/replicas/cluster.ts'
import { expect, test, waitForHydration } from './fixtures.ts'

/**
 * A visitor's open form outlives a restart, a lost data folder and a key rotation
 * (docs/contact.md#spam-defence; docs/decisions/form-token-keys.md): the site started as `npm
 * start` starts it (no CONTACT_TOKEN_SECRET), Chromium filling the form like a person, the server
 * restarted between typing and sending, a real SMTP server as the inbox. With and without
 * JavaScript.
 */
const PORT = Number(process.env.KEYS_E2E_PORT ?? 18340)
const ORIGIN = `http://127.0.0.1:${PORT}`
test.use({ baseURL: ORIGIN })
test.describe.configure({ mode: 'serial' })

let smtp: Awaited<ReturnType<typeof startSmtpServer>>
let site: SiteProcess | undefined

/** The site as `npm start` runs it (no CONTACT_TOKEN_SECRET), its outbox in `outbox`. */
async function serve(outbox: string) {
  site = await startSite(PORT, { OUTBOX_DIR: outbox, SMTP_URL: smtp.url })
}

const stop = async () => site?.stop()

/**
 * The server stopped and started again on `outbox` while the page stays open. What the page
 * fetched ahead in that second (a link's page chunk, loaded ahead when the browser is idle)
 * fails, as it would for a visitor, unnoticed: those failures, and only those, are not the
 * test's problems.
 */
async function restart(page: Page, problems: string[], outbox: string) {
  const failed: string[] = []
  const onFailed = (request: { url: () => string }) => failed.push(request.url())
  page.on('requestfailed', onFailed)
  await stop()
  await serve(outbox)
  page.off('requestfailed', onFailed)
  const refused = 'error: Failed to load resource: net::ERR_CONNECTION_REFUSED'
  const prefetched = failed.filter((url) => new URL(url).pathname.startsWith('/assets/'))
  expect(failed, 'only files fetched ahead failed during the restart').toEqual(prefetched)
  const kept = problems.filter((problem) => problem !== refused)
  expect(problems.length - kept.length).toBeLessThanOrEqual(prefetched.length)
  problems.splice(0, problems.length, ...kept)
}

test.beforeAll(async () => {
  smtp = await startSmtpServer()
})
// Each test starts its own server: the one a test left must not answer the next one's. The
// page leaves first, so that its requests never meet a server shutting down.
test.afterEach(async ({ page }) => {
  await page.goto('about:blank')
  await stop()
})
test.afterAll(async () => {
  await smtp.stop()
})

const newFolder = () => mkdtempSync(join(tmpdir(), 'modernwerk-keys-e2e-'))

const text = (locale: 'en' | 'de' | 'pl', path: string) =>
  String(get(texts(locale, 'common'), path))

/** Fills the form as a person types; the form's script asks for its token at the first field. */
async function fill(page: Page, locale: 'en' | 'de' | 'pl', message: string) {
  const form = page.locator('form.contact-form')
  await form
    .getByLabel(text(locale, 'form.name'))
    .pressSequentially('Zofia Wiśniewska', { delay: 20 })
  await form.getByLabel(text(locale, 'form.email')).fill('zofia@example.pl')
  await form.getByLabel(text(locale, 'form.service')).selectOption('cloud')
  await form.getByLabel(text(locale, 'form.subject')).fill('Migracja do chmury')
  await form.getByLabel(text(locale, 'form.message')).fill(message)
  return form
}

/** Until the inbox holds exactly one mail with this text. */
async function deliveredOnce(message: string) {
  const count = () => smtp.received.filter(({ mail }) => mail.text?.includes(message)).length
  await expect.poll(count, { timeout: 20_000 }).toBe(1)
  // And stays one: nothing delivered twice.
  await new Promise((resolve) => setTimeout(resolve, 500))
  expect(count()).toBe(1)
}

for (const journey of [
  { name: 'the same data folder', keepsFolder: true },
  { name: 'the data folder lost', keepsFolder: false },
]) {
  test(`with JavaScript, ${journey.name}: the form opened, the server restarted, the form sent, the lead arrives`, async ({
    page,
    problems,
  }) => {
    const folder = newFolder()
    await serve(folder)
    await page.goto('/pl/contact')
    await waitForHydration(page)
    const granted = page.waitForResponse((response) =>
      response.url().includes('/api/contact/token'),
    )
    const message = `Prosimy o ofertę migracji naszych serwerów do chmury (${journey.name}, ${Date.now()}).`
    const form = await fill(page, 'pl', message)
    await granted
    // The page's own requests done (its build check), so that none meets the restart.
    await page.waitForLoadState('networkidle')
    await restart(page, problems, journey.keepsFolder ? folder : newFolder())
    await page.waitForTimeout(PERSON_PAUSE_MS)
    await form.getByRole('button', { name: text('pl', 'form.submit') }).click()
    await expect(form.getByRole('status')).toHaveText(text('pl', 'form.status.success'), {
      timeout: 30_000,
    })
    await deliveredOnce(message)
    // Without the key, the form was renewed once (409) and sent again by its script.
    if (!journey.keepsFolder) {
      expect(problems).toEqual([expect.stringContaining('status of 409')])
      problems.length = 0
    }
  })
}

test.describe('without JavaScript', () => {
  test.use({ javaScriptEnabled: false })

  test('a page loaded before the restart (the same data folder), posted after it: the lead arrives', async ({
    page,
    problems,
  }) => {
    const folder = newFolder()
    await serve(folder)
    await page.goto('/de/contact')
    const message = `Bitte bieten Sie uns eine Migration in die Cloud an (${Date.now()}).`
    const form = await fill(page, 'de', message)
    await restart(page, problems, folder)
    await page.waitForTimeout(PERSON_PAUSE_MS)
    await form.getByRole('button', { name: text('de', 'form.submit') }).click()
    await expect(page).toHaveURL(/\/de\/contact\?sent=contact$/)
    await deliveredOnce(message)
  })

  test('the data folder lost: the form again, saying why, the text kept; sent again, it arrives', async ({
    page,
    problems,
  }) => {
    await serve(newFolder())
    await page.goto('/de/contact')
    const message = `Bitte rufen Sie uns wegen der Cloud-Migration an (${Date.now()}).`
    const form = await fill(page, 'de', message)
    await restart(page, problems, newFolder())
    await page.waitForTimeout(PERSON_PAUSE_MS)
    await form.getByRole('button', { name: text('de', 'form.submit') }).click()
    await expect(page.locator('form.contact-form').getByRole('alert')).toHaveText(
      text('de', 'form.status.expired'),
    )
    const again = page.locator('form.contact-form')
    await expect(again.getByLabel(text('de', 'form.message'))).toHaveValue(message)
    expect(smtp.received.some(({ mail }) => mail.text?.includes(message))).toBe(false)
    await again.getByRole('button', { name: text('de', 'form.submit') }).click()
    await expect(page).toHaveURL(/\/de\/contact\?sent=contact$/)
    await deliveredOnce(message)
    expect(problems).toEqual([expect.stringContaining('status of 409')])
    problems.length = 0
  })
})

test.describe('two replicas sharing Redis, behind a balancer', () => {
  test.skip(!hasRedisServer() || !NGINX, 'needs redis-server and nginx (apt-get install)')

  test('the key rotated pod by pod (the old one kept as previous): a script’s form and a kept page’s form both arrive', async ({
    page,
    browser,
  }) => {
    test.setTimeout(240_000)
    await stop()
    const redis = await startRedis({ durable: true })
    const oldKey = 'the-forms-key-before-the-rotation-0123456789'
    const newKey = 'the-forms-key-after-the-rotation-01234567890'
    const cluster = await startCluster({
      size: 2,
      port: PORT,
      env: {
        APP_BASE_URL: ORIGIN,
        LOG_LEVEL: 'fatal',
        REDIS_URL: redis.url,
        SMTP_URL: smtp.url,
        CONTACT_TOKEN_SECRET: oldKey,
      },
    })
    const noScript = await browser.newContext({ javaScriptEnabled: false, baseURL: ORIGIN })
    try {
      await page.goto('/pl/contact')
      await waitForHydration(page)
      const granted = page.waitForResponse((response) =>
        response.url().includes('/api/contact/token'),
      )
      const scripted = `Prosimy o ofertę (formularz ze skryptem, ${Date.now()}).`
      const form = await fill(page, 'pl', scripted)
      await granted
      await page.waitForLoadState('networkidle')
      const plainPage = await noScript.newPage()
      await plainPage.goto('/pl/contact')
      const plain = `Prosimy o ofertę (formularz bez skryptu, ${Date.now()}).`
      const plainForm = await fill(plainPage, 'pl', plain)

      // The rotation, one pod at a time, as a rolling update does it.
      for (const index of [0, 1]) {
        await cluster.kill(index, 'SIGTERM')
        await cluster.start(index, {
          CONTACT_TOKEN_SECRET: newKey,
          CONTACT_TOKEN_PREVIOUS_SECRETS: oldKey,
        })
      }
      await page.waitForTimeout(PERSON_PAUSE_MS)
      await form.getByRole('button', { name: text('pl', 'form.submit') }).click()
      await expect(form.getByRole('status')).toHaveText(text('pl', 'form.status.success'))
      await plainForm.getByRole('button', { name: text('pl', 'form.submit') }).click()
      await expect(plainPage).toHaveURL(/\/pl\/contact\?sent=contact$/)
      await deliveredOnce(scripted)
      await deliveredOnce(plain)
    } finally {
      await page.goto('about:blank')
      await noScript.close()
      await cluster.stop()
      await redis.dispose()
    }
  })
})
