import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOCALES, localizePath, type Locale } from '#shared/locales.ts'
import { LOCALIZED_PAGES, type LocalizedPage } from '#shared/pages.ts'
import { SHARE_IMAGE_SIZE } from '#shared/share-images.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import { decodeEntities, headOf, metaValues } from '#tests/helpers/page-head.ts'

// What a link preview (LinkedIn, Slack, Teams, WhatsApp, e-mail clients) reads of every page:
// one of each Open Graph and card tag, and a localized picture that really is there.

let app: FastifyInstance
let base: string
const documents = new Map<string, string>()
const heads = new Map<string, string>()

beforeAll(async () => {
  app = await buildTestApp()
  base = app.config.APP_BASE_URL
  for (const { path } of LOCALIZED_PAGES) {
    const response = await app.inject(path)
    expect(response.statusCode).toBe(200)
    documents.set(path, response.body)
    heads.set(path, headOf(response.body))
  }
})

afterAll(async () => {
  await app.close()
})

function only(head: string, key: string): string {
  const values = metaValues(head, key)
  expect(values, key).toHaveLength(1)
  return values[0] ?? ''
}

/** A PNG's width and height, from its header. */
function pngSize(body: Buffer): { width: number; height: number } {
  expect(body.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a')
  return { width: body.readUInt32BE(16), height: body.readUInt32BE(20) }
}

const TAGS = [
  'og:site_name',
  'og:type',
  'og:title',
  'og:description',
  'og:url',
  'og:image',
  'og:image:type',
  'og:image:width',
  'og:image:height',
  'og:image:alt',
  'twitter:card',
] as const

describe(`link previews of the ${LOCALIZED_PAGES.length} pages`, () => {
  it.each(LOCALIZED_PAGES.map((entry) => [entry.path, entry] as const))(
    '%s has one of each tag, and its picture answers with the declared size',
    async (path, { locale }: LocalizedPage) => {
      const head = heads.get(path) ?? ''
      for (const key of TAGS) only(head, key)
      expect(only(head, 'twitter:card')).toBe('summary_large_image')
      expect(only(head, 'og:site_name')).toBe('Modernwerk')
      expect(only(head, 'og:url')).toBe(`${base}${path}`)
      expect(only(head, 'og:title')).toBe(
        decodeEntities(/<title>([^<]*)<\/title>/.exec(head)?.[1] ?? ''),
      )

      const image = only(head, 'og:image')
      expect(image.startsWith(`${base}/assets/share/`)).toBe(true)
      expect(image).toMatch(new RegExp(`\\.${locale}\\.[\\w-]{10}\\.png$`))
      const response = await app.inject(image.slice(base.length))
      expect(response.statusCode).toBe(200)
      expect(response.headers['content-type']).toBe('image/png')
      expect(response.headers['cache-control']).toContain('immutable')
      const size = pngSize(response.rawPayload)
      expect(String(size.width)).toBe(only(head, 'og:image:width'))
      expect(String(size.height)).toBe(only(head, 'og:image:height'))
      expect(size).toEqual(SHARE_IMAGE_SIZE)
    },
  )

  it.each(LOCALES.filter((locale) => locale !== 'en'))(
    'every %s page has its own picture and a description of it in its language',
    (locale: Locale) => {
      for (const entry of LOCALIZED_PAGES.filter((candidate) => candidate.locale === locale)) {
        const english = heads.get(entry.page.path) ?? ''
        const own = heads.get(entry.path) ?? ''
        expect(only(own, 'og:image')).not.toBe(only(english, 'og:image'))
        expect(only(own, 'og:image:alt')).not.toBe(only(english, 'og:image:alt'))
        // The language and its most likely region, as Open Graph writes them (cs_CZ, not cs_CS).
        const region = new Intl.Locale(locale).maximize().region ?? ''
        expect(only(own, 'og:locale')).toBe(`${locale}_${region}`)
      }
    },
  )

  it.each(LOCALIZED_PAGES.map((entry) => entry.path))(
    'the picture of %s is described with the headline the page shows',
    (path) => {
      const h1 = /<h1[^>]*>([\s\S]*?)<\/h1>/.exec(documents.get(path) ?? '')?.[1] ?? ''
      const headline = decodeEntities(h1.replace(/<[^>]+>/g, ''))
      expect(headline.length).toBeGreaterThan(3)
      expect(only(heads.get(path) ?? '', 'og:image:alt')).toContain(headline)
    },
  )

  it.each(LOCALES)(
    'the 404 page in %s gets the generic picture and no structured data',
    async (locale) => {
      const response = await app.inject(localizePath(locale, '/no-such-page'))
      expect(response.statusCode).toBe(404)
      const head = headOf(response.body)
      expect(only(head, 'og:image')).toMatch(
        new RegExp(`/assets/share/generic\\.${locale}\\.[\\w-]{10}\\.png$`),
      )
      expect(only(head, 'twitter:card')).toBe('summary_large_image')
      expect(metaValues(head, 'og:url')).toHaveLength(0)
      expect(head).not.toContain('application/ld+json')
      const picture = await app.inject(only(head, 'og:image').slice(base.length))
      expect(picture.statusCode).toBe(200)
    },
  )
})
