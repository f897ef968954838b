import { describe, expect, it } from 'vitest'
import {
  formatList,
  LOCALES,
  localeFromPath,
  localizePath,
  unlocalizePath,
} from '#shared/locales.ts'
import { LOCALIZED_PAGES, PAGES } from '#shared/pages.ts'
import { SERVICES } from '#shared/services.ts'
import { TEAM } from '#shared/team.ts'

describe('locale paths', () => {
  it.each([
    ['/', 'en'],
    ['/about', 'en'],
    ['/de', 'de'],
    ['/de/about', 'de'],
    ['/pl/services/managed-it', 'pl'],
    ['/dex', 'en'],
    ['/en/about', 'en'],
  ])('%s is %s', (path, locale) => {
    expect(localeFromPath(path)).toBe(locale)
  })

  it('prefixes and strips locales', () => {
    expect(localizePath('en', '/about')).toBe('/about')
    expect(localizePath('de', '/')).toBe('/de')
    expect(localizePath('pl', '/team/jonas-weber')).toBe('/pl/team/jonas-weber')
    expect(unlocalizePath('/de')).toBe('/')
    expect(unlocalizePath('/pl/about')).toBe('/about')
    expect(unlocalizePath('/about')).toBe('/about')
  })

  it('has the nine fixed pages, one per service and team member, in every locale', () => {
    expect(PAGES).toHaveLength(9 + SERVICES.length + TEAM.length)
    expect(new Set(PAGES.map((page) => page.id)).size).toBe(PAGES.length)
    const paths = LOCALIZED_PAGES.map(({ path }) => path)
    expect(new Set(paths).size).toBe(PAGES.length * LOCALES.length)
    for (const path of paths) expect(path).toMatch(/^\/([a-z0-9-]+(\/[a-z0-9-]+)*)?$/)
  })
})

describe('lists in running text', () => {
  it('join their items as the copy does: no serial comma in English', () => {
    const items = ['your name', 'the subject', 'your message']
    expect(formatList(items, 'en')).toBe('your name, the subject and your message')
    expect(formatList(items, 'de')).toBe('your name, the subject und your message')
    expect(formatList(items, 'pl')).toBe('your name, the subject i your message')
    expect(formatList(['Polish', 'English'], 'en')).toBe('Polish and English')
  })
})
