import { join } from 'node:path'
import type { i18n as I18n } from 'i18next'
import { beforeAll, describe, expect, it } from 'vitest'
import { LOCALES } from '#shared/locales.ts'
import { PAGES } from '#shared/pages.ts'
import { breadcrumbTrail, genericTexts, pageTexts, type Translate } from '#shared/page-texts.ts'
import { loadSiteTexts } from '#server/plugins/i18n.ts'

// The keys `pageTexts` builds from the page table resolve in every language: a page added to
// the table without its texts fails here, not in a preview.

let i18n: I18n

beforeAll(async () => {
  i18n = await loadSiteTexts(join(import.meta.dirname, '..', '..', 'locales'))
})

const cases = LOCALES.flatMap((locale) => PAGES.map((page) => [locale, page.id, page] as const))

describe('the texts that name each page', () => {
  it.each(cases)(
    '%s %s: label, badge, headline, title and description are real texts',
    (locale, _id, page) => {
      const seen: string[] = []
      const t: Translate = (key, values) => {
        seen.push(key)
        return i18n.getFixedT(locale)(key as never, values as never) as unknown as string
      }
      const texts = pageTexts(page, t)
      for (const [field, value] of Object.entries(texts)) {
        expect(value.trim().length, field).toBeGreaterThan(1)
        expect(seen, `${field} came back as its key`).not.toContain(value)
        expect(value).not.toMatch(/\{\{|\}\}/)
      }
      for (const key of seen) expect(i18n.exists(key, { lng: locale }), key).toBe(true)
    },
  )

  it.each(LOCALES)('the generic picture has texts in %s', (locale) => {
    const t = i18n.getFixedT(locale) as unknown as Translate
    const { badge, title } = genericTexts(t)
    expect(badge).not.toBe('hero.eyebrow')
    expect(title.length).toBeGreaterThan(20)
  })

  it.each(PAGES.map((page) => [page.id, page] as const))(
    '%s sits under the home page, itself last',
    (_id, page) => {
      const trail = breadcrumbTrail(page)
      expect(trail[0]?.id).toBe('home')
      expect(trail.at(-1)).toBe(page)
      expect(new Set(trail).size).toBe(trail.length)
    },
  )
})
