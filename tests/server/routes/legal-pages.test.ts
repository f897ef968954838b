import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BROWSER_STORAGE, RELOAD_GUARD_KEY_PREFIX } from '#shared/browser-storage.ts'
import { COMPANY } from '#shared/company.ts'
import { CONTACT_FIELDS } from '#shared/contact-fields.ts'
import { LOCALES, localizePath, type Locale } from '#shared/locales.ts'
import { page as pageOf } from '#shared/pages.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import { texts } from '#tests/helpers/locales.ts'
import { type PerLanguage, unwritten, written } from '#tests/helpers/per-language.ts'

/** Words as a pattern that accepts any space between them (the typography adds no-break ones). */
function words(text: string): RegExp {
  const escaped = text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')
  return new RegExp(escaped.replace(/ /g, '[\\s\\u00a0\\u202f]+'))
}

/** A page's visible text: markup and the embedded JSON (which holds the raw texts) removed. */
function visibleText(body: string): string {
  return body
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;/g, "'")
    .replace(/&quot;/g, '"')
    .replace(/&amp;/g, '&')
}

const apps: FastifyInstance[] = []
async function site(env: Record<string, string> = {}) {
  const app = await buildTestApp(env)
  apps.push(app)
  return app
}
afterAll(async () => {
  await Promise.all(apps.map((app) => app.close()))
})

async function text(app: FastifyInstance, id: 'privacy-policy' | 'cookie-policy', locale: Locale) {
  const response = await app.inject(localizePath(locale, pageOf(id).path))
  expect(response.statusCode).toBe(200)
  return visibleText(response.body)
}

/** What each language says for the settings below, spelled out here, not computed. */
type Stated = Readonly<
  Record<
    | 'retention'
    | 'window'
    | 'max'
    | 'cookie'
    | 'logs'
    | 'errorReports'
    | 'queueDisk'
    | 'tokenMaxAge'
    | 'statistics',
    string
  >
>

const STATED: PerLanguage<Stated> = {
  en: {
    retention: '12 days',
    window: '1 hour',
    max: 'no more than 3 per hour',
    cookie: '365 days',
    logs: 'deletes it automatically after 9 days',
    errorReports: 'up to 10 security reports per minute',
    queueDisk: 'no more than 2 hours later',
    tokenMaxAge: 'for 4 hours; by then, the token has expired anyway',
    statistics: 'we keep them for no longer than 90 days',
  },
  de: {
    retention: '12 Tage',
    window: '1 Stunde',
    max: 'nimmt davon höchstens 3 je Stunde an',
    cookie: '365 Tage',
    logs: 'nach 9 Tagen automatisch löscht',
    errorReports: 'Er nimmt je Minute bis zu 10 Fehlermeldungen',
    queueDisk: 'spätestens 2 Stunden danach',
    tokenMaxAge: 'für 4 Stunden jedes verwendete Token',
    statistics: 'bewahren sie höchstens 90 Tage lang auf',
  },
  pl: {
    retention: '12 dni',
    window: '1 godzinę',
    max: 'najwyżej 3 wiadomości na godzinę',
    cookie: '365 dni',
    logs: 'usuwa go po 9 dniach',
    errorReports: 'do 10 zgłoszeń naruszeń na minutę',
    queueDisk: 'najpóźniej 2 godziny później',
    tokenMaxAge: 'przez 4 godziny przechowujemy każdy wykorzystany token',
    statistics: 'przechowujemy je nie dłużej niż przez 90 dni',
  },
}

describe('the privacy policy states what this deployment does', () => {
  let configured: FastifyInstance
  let withCdn: FastifyInstance
  let plain: FastifyInstance

  beforeAll(async () => {
    configured = await site({
      CONTACT_RETENTION_DAYS: '12',
      CONTACT_RATE_MAX: '3',
      CONTACT_RATE_WINDOW: '1 hour',
      LOG_RETENTION_DAYS: '9',
      REDIS_AOF_REWRITE_INTERVAL: '2 hours',
      CONTACT_TOKEN_MAX_AGE: '4 hours',
      STATISTICS_RETENTION_DAYS: '90',
    })
    withCdn = await site({ CDN_URL: 'https://cdn.modernwerk.example' })
    plain = await site()
  })

  it.each(written(STATED))(
    'retention, rate limits, log, queue-disk, form-token and statistics bounds and cookie lifetime from the settings (%s)',
    async (locale, stated) => {
      const privacy = await text(configured, 'privacy-policy', locale)
      expect(privacy).toMatch(words(stated.retention))
      expect(privacy).toMatch(words(stated.window))
      expect(privacy).toMatch(words(stated.max))
      expect(privacy).toMatch(words(stated.cookie))
      expect(privacy).toMatch(words(stated.logs))
      expect(privacy).toMatch(words(stated.errorReports))
      expect(privacy).toMatch(words(stated.queueDisk))
      expect(privacy).toMatch(words(stated.tokenMaxAge))
      expect(privacy).toMatch(words(stated.statistics))
      expect(privacy).not.toContain('{{')
      expect(await text(configured, 'cookie-policy', locale)).toMatch(words(stated.cookie))
      // The defaults: 30 days and 15 minutes.
      const defaults = await text(plain, 'privacy-policy', locale)
      expect(defaults).toMatch(words(stated.retention.replace('12', '30')))
      expect(defaults).toMatch(/15[\s\u00a0\u202f]+(minutes|Minuten|minut)/)
    },
  )
  it.skip.each(unwritten(STATED))('%s: add what it says for the settings to STATED', () => {})

  it.each(LOCALES)(
    'names the CDN as a processor only when one is configured (%s)',
    async (locale) => {
      const cdnName = COMPANY.cdn.provider
      const without = await text(plain, 'privacy-policy', locale)
      expect(without).not.toContain(cdnName)
      expect(without).toContain(COMPANY.hosting.provider)
      const withIt = await text(withCdn, 'privacy-policy', locale)
      // Its own section and its entry among the processors.
      expect(withIt.split(cdnName).length - 1).toBeGreaterThanOrEqual(3)
      // And among what rests on Art. 6(1)(f), which the right to object names.
      const grounds = texts(locale, 'privacy').objectionGrounds as Record<string, string>
      expect(withIt).toMatch(words(String(grounds.cdn)))
      expect(without).not.toMatch(words(String(grounds.cdn)))
      for (const key of [
        'serverLogs',
        'contactRateLimit',
        'spamProtection',
        'errorReportRateLimit',
        'languageCookie',
      ]) {
        expect(without).toMatch(words(String(grounds[key])))
      }
      const body = (await withCdn.inject(localizePath(locale, '/privacy-policy'))).body
      expect(body).toContain('id="cdn"')
      expect((await plain.inject(localizePath(locale, '/privacy-policy'))).body).not.toContain(
        'id="cdn"',
      )
    },
  )
})

describe('the cookie policy lists everything the site stores in the browser', () => {
  let app: FastifyInstance
  let withCdn: FastifyInstance
  beforeAll(async () => {
    app = await site()
    withCdn = await site({ CDN_URL: 'https://cdn.modernwerk.example' })
  })

  it.each(LOCALES)(
    'says the browser contacts the CDN only when one is configured (%s)',
    async (locale) => {
      const cdnName = COMPANY.cdn.provider
      const without = await text(app, 'cookie-policy', locale)
      const withIt = await text(withCdn, 'cookie-policy', locale)
      expect(without).not.toContain(cdnName)
      expect(withIt).toContain(cdnName)
      // The plain text's last sentence ("… does not contact any external service …") is not
      // said where it would be false.
      const plain = texts(locale, 'cookies') as {
        sections: { noTracking: { paragraphs: string[] } }
      }
      const claim = plain.sections.noTracking.paragraphs.at(-1)?.split('; ').at(-1) ?? ''
      expect(claim.length).toBeGreaterThan(20)
      expect(without).toMatch(words(claim.replaceAll("'", '’')))
      expect(withIt).not.toMatch(words(claim.replaceAll("'", '’')))
    },
  )

  it.each(LOCALES)('one row per entry of the storage table (%s)', async (locale) => {
    const body = (await app.inject(localizePath(locale, '/cookie-policy'))).body
    const rows = body.match(/<tr><th scope="row">/g) ?? []
    expect(rows).toHaveLength(BROWSER_STORAGE.length)
    for (const entry of BROWSER_STORAGE) {
      expect(body).toContain(
        `<code>${entry.name.replace(/</g, '&lt;').replace(/>/g, '&gt;')}</code>`,
      )
    }
    const cookies = await text(app, 'cookie-policy', locale)
    expect(cookies).toContain(RELOAD_GUARD_KEY_PREFIX)
    expect(cookies).not.toContain('{{')
  })
})

describe('the privacy policy lists the contact form’s fields from the field table', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await site()
  })

  it.each(LOCALES)('every field of CONTACT_FIELDS, in the form’s order (%s)', async (locale) => {
    const privacy = await text(app, 'privacy-policy', locale)
    const nouns = texts(locale, 'privacy').formFields as Record<string, string>
    let from = 0
    for (const field of CONTACT_FIELDS) {
      const noun = nouns[field.name]
      expect(noun, `privacy:formFields.${field.name} in ${locale}`).toBeTruthy()
      const match = words(String(noun).replaceAll("'", '’')).exec(privacy.slice(from))
      expect(match, `${field.name} after the fields before it`).not.toBeNull()
      from += (match?.index ?? 0) + (match?.[0].length ?? 0)
    }
  })
})
