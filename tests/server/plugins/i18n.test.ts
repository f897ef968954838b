import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'

const LOCALES_DIR = join(import.meta.dirname, '..', '..', '..', 'locales')

/** A copy of the locale files to break, removed after the suite. */
const copies: string[] = []
function localesCopy(): string {
  const dir = mkdtempSync(join(tmpdir(), 'modernwerk-locales-'))
  cpSync(LOCALES_DIR, dir, { recursive: true })
  copies.push(dir)
  return dir
}
afterAll(() => {
  for (const dir of copies) rmSync(dir, { recursive: true, force: true })
})

describe('locale files at start (i18next-fs-backend)', () => {
  it('a missing file stops the start, naming the file', async () => {
    const dir = localesCopy()
    rmSync(join(dir, 'pl', 'about.json'))
    await expect(buildTestApp({}, { localesDir: dir })).rejects.toThrow(
      `Locale file not loaded: ${join(dir, 'pl', 'about.json')}`,
    )
  })

  it('a broken file stops the start, naming the file and the position', async () => {
    const dir = localesCopy()
    writeFileSync(join(dir, 'de', 'common.json'), '{\n  "nav": { "home": "Start" ,,\n}\n')
    await expect(buildTestApp({}, { localesDir: dir })).rejects.toThrow(
      new RegExp(`Locale file invalid: ${join(dir, 'de', 'common.json')}: .*line 2 column`),
    )
  })
})

/** The words between markup, as a visitor reads them (no-break spaces as plain ones). */
function visibleText(body: string): string {
  return body
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/[\u00a0\u202f]/g, ' ')
}

describe('Polish plural forms rendered by the server through i18next', () => {
  let few: FastifyInstance
  let many: FastifyInstance
  beforeAll(async () => {
    few = await buildTestApp({ CONTACT_RATE_WINDOW: '3 minutes' })
    many = await buildTestApp({ CONTACT_RATE_WINDOW: '25 minutes' })
  })
  afterAll(async () => {
    await Promise.all([few.close(), many.close()])
  })

  it('the privacy policy keeps an address for "3 minuty" (few) and "25 minut" (many)', async () => {
    const threeMinutes = visibleText((await few.inject('/pl/privacy-policy')).body)
    const twentyFiveMinutes = visibleText((await many.inject('/pl/privacy-policy')).body)
    expect(threeMinutes).toContain('z licznikami przez 3 minuty, a następnie usuwany')
    expect(twentyFiveMinutes).toContain('z licznikami przez 25 minut, a następnie usuwany')
  })
})

describe('the pseudo-locale (PSEUDO_LOCALE=1, development and tests)', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await buildTestApp({ PSEUDO_LOCALE: '1' })
  })
  afterAll(async () => {
    await app.close()
  })

  it('replaces the English texts, marked at both ends, and leaves German and Polish alone', async () => {
    const english = visibleText((await app.inject('/about')).body)
    // The header's link and the page's heading, longer and accented between markers.
    expect(english).toContain('⟦ÁÁbööüüt⟧')
    expect(english).toMatch(/⟦[^⟧]*⟧/)
    expect(english).not.toContain(' About ')
    const german = visibleText((await app.inject('/de/about')).body)
    expect(german).toContain('Über uns')
    expect(german).not.toContain('⟦')
  })
})
