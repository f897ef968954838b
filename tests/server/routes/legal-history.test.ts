import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  LEGAL_HISTORY,
  formatLegalDate,
  type DatedLegalText,
  type LegalConfiguration,
} from '#shared/legal.ts'
import { LOCALE_INFO, LOCALES, localizePath, type Locale } from '#shared/locales.ts'
import { PAGES } from '#shared/pages.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import { html, texts } from '#tests/helpers/locales.ts'

/**
 * The dated history of the legal texts (shared/legal.ts,
 * docs/languages.md#legal-texts-that-state-what-the-code-does): a text whose rendered words change
 * without a new dated version fails here. The hash covers what a visitor reads of the document
 * (title, introduction, tables, sections) in each language, with the default settings, with a
 * CDN and with no quarantine, but not the date line and the history list themselves. The
 * texts are rendered from the sources (development mode), so no build is needed to see a change.
 */
const TEXTS = Object.keys(LEGAL_HISTORY) as DatedLegalText[]
const CONFIGURATIONS: Record<LegalConfiguration, Record<string, string>> = {
  default: {},
  cdn: { CDN_URL: 'https://cdn.modernwerk.example' },
  noQuarantine: { QUARANTINE_DAYS: '0' },
}

function path(text: DatedLegalText, locale: Locale): string {
  const page = PAGES.find((candidate) => candidate.screen === text)
  if (!page) throw new Error(`no page shows the ${text} text`)
  return localizePath(locale, page.path)
}

/** The article's words as a visitor reads them, without the date line and the history. */
function documentText(body: string): string {
  const article = /<article class="legal[^"]*">([\s\S]*?)<\/article>/.exec(body)?.[1] ?? ''
  return article
    .replace(/<p class="legal-updated">[\s\S]*?<\/p>/, ' ')
    .replace(/<section class="[^"]*legal-history[\s\S]*?<\/section>/, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
}

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 16)
}

const apps = new Map<LegalConfiguration, FastifyInstance>()
beforeAll(async () => {
  for (const [name, env] of Object.entries(CONFIGURATIONS)) {
    // Development mode renders through Vite from the sources: the hashes are those of the texts,
    // tables and components as they are now, not of the last build (`npm run build`).
    apps.set(name as LegalConfiguration, await buildTestApp({ NODE_ENV: 'development', ...env }))
  }
})
afterAll(async () => {
  await Promise.all([...apps.values()].map((app) => app.close()))
})

async function render(configuration: LegalConfiguration, text: DatedLegalText, locale: Locale) {
  const app = apps.get(configuration)
  if (!app) throw new Error(`no app for the ${configuration} configuration`)
  const response = await app.inject(path(text, locale))
  expect(response.statusCode).toBe(200)
  return response.body
}

describe('the dated history of the legal texts', () => {
  it.each(TEXTS)('%s: starts with the original publication, dates in order', (text) => {
    const dates = LEGAL_HISTORY[text].map(({ date }) => date)
    expect(dates[0]).toBe('2024-05-22')
    for (const date of dates) expect(Number.isNaN(Date.parse(date)), date).toBe(false)
    expect([...dates].sort()).toEqual(dates)
    expect(new Set(dates).size).toBe(dates.length)
  })

  it.each(TEXTS)('%s: each version says what changed in every language, and only those', (text) => {
    const dates = LEGAL_HISTORY[text].map(({ date }) => date).sort()
    for (const locale of LOCALES) {
      const history = texts(locale, text).history as Record<string, string>
      expect(Object.keys(history).sort(), locale).toEqual(dates)
    }
  })

  it.each(TEXTS)(
    '%s: the rendered text is the one its latest version recorded (else add a version)',
    async (text) => {
      const latest = LEGAL_HISTORY[text].at(-1)
      const rendered: Record<string, Record<string, string>> = {}
      for (const configuration of Object.keys(CONFIGURATIONS) as LegalConfiguration[]) {
        rendered[configuration] = {}
        for (const locale of LOCALES) {
          const words = documentText(await render(configuration, text, locale))
          expect(words.length).toBeGreaterThan(500)
          rendered[configuration][locale] = hash(words)
        }
      }
      // A language the latest version has no hash of is new: its text is a translation of that
      // version, not a change of it, so its hashes go into the version as it is.
      const recorded = latest?.hashes?.default ?? {}
      const newLanguages = LOCALES.filter((locale) => recorded[locale] === undefined)
      const advice =
        newLanguages.length > 0
          ? `${newLanguages.join(', ')} is new to it: add the hashes of ${newLanguages.join(', ')} ` +
            `to its latest version (${latest?.date ?? 'none'}) in LEGAL_HISTORY.${text}, ` +
            `shared/legal.ts, as they are here:\n`
          : `If the change is meant, add a version to LEGAL_HISTORY.${text} in shared/legal.ts ` +
            `with today's date, a history entry in locales/*/${text}.json, and these hashes:\n`
      expect(
        latest?.hashes,
        `The ${text} text as visitors read it is not the one of its latest dated version. ` +
          advice +
          JSON.stringify(rendered),
      ).toEqual(rendered)
    },
  )

  it.each(LOCALES)('%s: the page shows the latest date and every version', async (locale) => {
    for (const text of TEXTS) {
      const body = await render('default', text, locale)
      const history = texts(locale, text).history as Record<string, string>
      const versions = [...LEGAL_HISTORY[text]].reverse()
      const dates = versions.map(({ date }) => html(formatLegalDate(date, LOCALE_INFO[locale].iso)))
      const updated = /<p class="legal-updated">([\s\S]*?)<\/p>/.exec(body)?.[1] ?? ''
      expect(updated).toContain(dates[0])
      const list = /<section class="[^"]*legal-history[\s\S]*?<\/section>/.exec(body)?.[0] ?? ''
      const items = [...list.matchAll(/<li>([\s\S]*?)<\/li>/g)].map(([, item]) => item ?? '')
      expect(items).toHaveLength(versions.length)
      versions.forEach(({ date }, index) => {
        expect(items[index]).toContain(`<time dateTime="${date}">${dates[index]}</time>`)
        expect(items[index]).toContain(html(history[date], locale))
      })
    }
  })
})

describe('settings the policies state, changed by a deployment', () => {
  let app: FastifyInstance
  let withCdn: FastifyInstance
  beforeAll(async () => {
    // A day after the latest version: the app starts with the clock on it (a later date than
    // today is refused), then runs on the real one.
    vi.useFakeTimers({ now: new Date('2031-03-01T12:00:00Z'), toFake: ['Date'] })
    app = await buildTestApp({ CONTACT_RETENTION_DAYS: '14', POLICY_SETTINGS_SINCE: '2031-03-01' })
    withCdn = await buildTestApp({
      CDN_URL: 'https://cdn.modernwerk.example',
      POLICY_SETTINGS_SINCE: '2031-03-01',
    })
    vi.useRealTimers()
  })
  afterAll(() => Promise.all([app.close(), withCdn.close()]))

  const updated = (body: string) => /<p class="legal-updated">([\s\S]*?)<\/p>/.exec(body)?.[1]

  it.each(LOCALES)(
    '%s: the policy is dated from POLICY_SETTINGS_SINCE and says why',
    async (locale) => {
      const body = (await app.inject(path('privacy', locale))).body
      const since = html(formatLegalDate('2031-03-01', LOCALE_INFO[locale].iso))
      expect(/<p class="legal-updated">([\s\S]*?)<\/p>/.exec(body)?.[1]).toContain(since)
      const first = /<section class="[^"]*legal-history[\s\S]*?<li>([\s\S]*?)<\/li>/.exec(body)?.[1]
      expect(first).toContain(`<time dateTime="2031-03-01">${since}</time>`)
      const common = texts(locale, 'common') as { legal: { settingsChanged: string } }
      expect(first).toContain(html(common.legal.settingsChanged, locale))
      // The terms state none of these settings, the cookie policy only the CDN.
      expect(updated((await app.inject(path('terms', locale))).body)).not.toContain(since)
      expect(updated((await app.inject(path('cookies', locale))).body)).not.toContain(since)
      expect(updated((await withCdn.inject(path('cookies', locale))).body)).toContain(since)
      expect(updated((await withCdn.inject(path('terms', locale))).body)).not.toContain(since)
    },
  )
  it('without POLICY_SETTINGS_SINCE, changed settings date the policy from the day they were first seen, after restarts too', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'modernwerk-outbox-'))
    const settings = { CONTACT_RETENTION_DAYS: '14', OUTBOX_DIR: dir }
    vi.useFakeTimers({ now: new Date('2031-03-01T12:00:00Z'), toFake: ['Date'] })
    const first = await buildTestApp(settings)
    await first.close()
    // Restarted three days later (or another replica started then): the same day.
    vi.setSystemTime(new Date('2031-03-04T12:00:00Z'))
    const undated = await buildTestApp(settings)
    vi.useRealTimers()
    const unchanged = await buildTestApp({})
    try {
      expect(undated.policyFacts.settingsSince).toBe('2031-03-01')
      const body = (await undated.inject(path('privacy', 'de'))).body
      expect(updated(body)).toContain(html(formatLegalDate('2031-03-01', LOCALE_INFO.de.iso)))
      const common = texts('de', 'common') as { legal: { settingsChanged: string } }
      expect(body).toContain(html(common.legal.settingsChanged, 'de'))
      // With every stated setting at its default, the history alone dates it.
      expect(unchanged.policyFacts.settingsSince).toBeNull()
    } finally {
      await Promise.all([undated.close(), unchanged.close()])
    }
  })
})
