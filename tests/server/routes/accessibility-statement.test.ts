import { existsSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COMPANY } from '#shared/company.ts'
import { ACCESSIBILITY_REVIEWED, formatLegalDate } from '#shared/legal.ts'
import { LOCALE_INFO, LOCALES, localizePath } from '#shared/locales.ts'
import { PAGES } from '#shared/pages.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import { html, texts } from '#tests/helpers/locales.ts'

const ROOT = join(import.meta.dirname, '..', '..', '..')
const PATH = PAGES.find((page) => page.screen === 'accessibility')?.path ?? ''

/**
 * What each item of the statement's testing list rests on: the suites that check it
 * (docs/testing.md). An item added to the statement without its tests fails here.
 */
const BACKED_BY: readonly (readonly string[])[] = [
  ['tests/e2e/crawl.spec.ts', 'tests/e2e/accessibility-checks.spec.ts'],
  ['tests/e2e/contact-form.spec.ts', 'tests/e2e/wcag.spec.ts', 'tests/e2e/wcag-checks.ts'],
  ['tests/e2e/wcag-checks.ts', 'tests/e2e/wcag.spec.ts', 'tests/engines/journeys.ts'],
  ['tests/e2e/wcag-checks.ts'],
  ['tests/e2e/display-modes.spec.ts', 'tests/e2e/wcag.spec.ts', 'tests/engines/journeys.ts'],
  ['tests/engines/engines.test.ts', 'tests/engines/journeys.ts'],
]

let app: FastifyInstance
beforeAll(async () => {
  app = await buildTestApp()
})
afterAll(async () => {
  await app.close()
})

describe('the accessibility statement', () => {
  it.each(LOCALES)(
    '%s: states WCAG 2.2 AA, how it is tested, whom to tell, and when it was reviewed',
    async (locale) => {
      const response = await app.inject(localizePath(locale, PATH))
      expect(response.statusCode).toBe(200)
      const body = response.body
      const own = texts(locale, 'accessibility') as {
        title: string
        sections: { testing: { items: string[] } }
      }
      expect(body).toContain(`<h1`)
      expect(body).toContain(html(own.title, locale))
      expect(body).toMatch(/WCAG\)? 2\.2/)
      expect(body).toContain('AA')
      expect(body).toContain(COMPANY.email)
      expect(body).toContain(html(COMPANY.phone, locale))
      expect(body).toContain(html(formatLegalDate(ACCESSIBILITY_REVIEWED, LOCALE_INFO[locale].iso)))
      // Each claim of the testing list, in every language, rests on suites that exist.
      expect(own.sections.testing.items).toHaveLength(BACKED_BY.length)
    },
  )

  it('each item of the testing list names suites that exist', () => {
    for (const files of BACKED_BY) {
      for (const file of files) expect(existsSync(join(ROOT, file)), file).toBe(true)
    }
  })

  it.each(LOCALES)('%s: every page links to it from the footer', async (locale) => {
    const target = localizePath(locale, PATH)
    for (const page of PAGES) {
      const body = (await app.inject(localizePath(locale, page.path))).body
      const footer = /<footer[\s\S]*<\/footer>/.exec(body)?.[0] ?? ''
      expect(footer, page.id).toContain(`href="${target}"`)
    }
  })

  it('was reviewed on a day that has come', () => {
    expect(Date.parse(ACCESSIBILITY_REVIEWED)).toBeLessThanOrEqual(Date.now())
  })
})
