import { BROWSER_STORAGE } from '#shared/browser-storage.ts'
import { companyVariables, countryName } from '#shared/company.ts'
import { initials, PARTNERS, TESTIMONIALS } from '#shared/home.ts'
import { formatList, LOCALE_INFO, LOCALES } from '#shared/locales.ts'
import { LOCALIZED_PAGES } from '#shared/pages.ts'
import { TEAM } from '#shared/team.ts'
import { cutOffContent } from '#tests/helpers/reflow.ts'
import { startSite, type SiteProcess } from '#tests/helpers/site-process.ts'
import { expect, test, waitForHydration } from './fixtures.ts'

/**
 * The 16 English pages in the pseudo-locale (shared/pseudo-locale.ts: accented English about a
 * third longer, each text between ⟦ and ⟧) at 320 CSS px, the width WCAG's reflow asks for:
 * every word a visitor sees or hears comes from the locale files (it is marked) or from the
 * site's data (names, company facts, what `Intl` writes), and the longer words neither push
 * the page sideways nor get cut off. The build served with `NODE_ENV=test` and
 * `PSEUDO_LOCALE=1`; production refuses the setting.
 */
const PORT = Number(process.env.PSEUDO_E2E_PORT ?? 18360)
const SITE = `http://127.0.0.1:${PORT}`

/** Words of the site's data the pages show as they are: not copy, so never marked. */
function dataWords(): Set<string> {
  const month = new Intl.DateTimeFormat('en-US', { month: 'long' })
  const language = new Intl.DisplayNames('en', { type: 'language' })
  const values = [
    ...Object.values(companyVariables()).map(String),
    countryName('en'),
    ...TEAM.map((member) => member.name),
    ...TESTIMONIALS.flatMap(({ name }) => [name, initials(name)]),
    ...PARTNERS,
    ...LOCALES.flatMap((locale) => [LOCALE_INFO[locale].name, language.of(locale) ?? locale]),
    ...BROWSER_STORAGE.map((entry) => entry.name),
    // What `Intl` writes in English: a date's month, the word that joins a list.
    ...Array.from({ length: 12 }, (_, index) => month.format(new Date(2026, index, 15))),
    formatList(['', ''], 'en'),
  ]
  return new Set(values.flatMap((value) => value.match(/\p{L}+/gu) ?? []))
}

/** What the page shows and says (its text and its labels), with every marked text removed. */
function unmarkedText(): string[] {
  const labels = [...document.body.querySelectorAll('[aria-label], [alt], [title], [placeholder]')]
    .flatMap((element) =>
      ['aria-label', 'alt', 'title', 'placeholder'].map((name) => element.getAttribute(name)),
    )
    .filter((value): value is string => !!value)
  return [document.body.innerText, ...labels].flatMap((text) => {
    let rest = text
    // Inner texts first: a text may hold another (a heading inside "Section 3: …").
    for (let before = ''; before !== rest;) {
      before = rest
      rest = rest.replace(/⟦[^⟦⟧]*⟧/g, ' ')
    }
    return rest
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '')
  })
}

/** Names of tables wider than the page that reach outside the part of the table in view. */
function captionsOutOfView(): string[] {
  return [...document.querySelectorAll('.table-scroll caption')].flatMap((caption) => {
    const range = document.createRange()
    range.selectNodeContents(caption)
    const text = range.getBoundingClientRect()
    const view = caption.closest('.table-scroll')?.getBoundingClientRect()
    return view && (text.left < view.left - 1 || text.right > view.right + 1)
      ? [`${caption.textContent}: ${Math.round(text.width)} px in ${Math.round(view.width)}`]
      : []
  })
}

let server: SiteProcess | undefined

test.use({ baseURL: SITE })
test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  server = await startSite(PORT, { NODE_ENV: 'test', PSEUDO_LOCALE: '1' })
})

test.afterAll(async () => {
  await server?.stop()
})

const data = dataWords()

/** The lines of `unmarkedText` with a word that is not data. */
const untranslatedIn = (lines: string[]) =>
  lines.filter((line) => (line.match(/\p{L}+/gu) ?? []).some((word) => !data.has(word)))

for (const { path } of LOCALIZED_PAGES.filter((entry) => entry.locale === 'en')) {
  test(`${path} in the pseudo-locale at 320 px: every text translatable, nothing cut off`, async ({
    page,
  }) => {
    await page.setViewportSize({ width: 320, height: 640 })
    await page.goto(path)
    await waitForHydration(page)
    await page.evaluate(() => document.fonts.ready)
    // The pseudo-locale is what is shown (a team member's headline is a name: data).
    await expect(page.locator('main')).toContainText('⟦')

    const untranslated = untranslatedIn(await page.evaluate(unmarkedText))
    expect(untranslated, 'text outside the locale files and the data tables').toEqual([])
    expect(await page.evaluate(cutOffContent), 'at 320 CSS px').toEqual([])
    // A table may scroll sideways (WCAG exempts data tables), its name may not.
    expect(await page.evaluate(captionsOutOfView), 'a table name read only by scrolling').toEqual(
      [],
    )
  })
}

test('the checks find a text written into the code and a box too wide for 320 px', async ({
  page,
}) => {
  await page.setViewportSize({ width: 320, height: 640 })
  await page.goto('/')
  await waitForHydration(page)
  // Made with the DOM's own calls: the page's Trusted Types policy refuses HTML strings.
  await page.evaluate(() => {
    const main = document.querySelector('main')
    const text = document.createElement('p')
    text.textContent = 'Call us now'
    const button = document.createElement('button')
    button.setAttribute('aria-label', 'Close')
    const wide = document.createElement('div')
    wide.textContent = '⟦Ŵîðé⟧'
    wide.style.width = '400px'
    main?.prepend(text, button, wide)
  })
  expect(untranslatedIn(await page.evaluate(unmarkedText))).toEqual(['Call us now', 'Close'])
  expect((await page.evaluate(cutOffContent)).join('\n')).toMatch(/page scrolls sideways|spans/)
})
