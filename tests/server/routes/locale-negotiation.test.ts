import type { FastifyInstance } from 'fastify'
import { XMLParser } from 'fast-xml-parser'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOCALES, localizePath } from '#shared/locales.ts'
import { LOCALIZED_PAGES, PAGES } from '#shared/pages.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'

const BASE = 'https://www.modernwerk.example'
let app: FastifyInstance

beforeAll(async () => {
  app = await buildTestApp({ APP_BASE_URL: BASE })
})

afterAll(async () => {
  await app.close()
})

/** `Accept-Language` header → the locale it negotiates to without a cookie. */
const HEADERS: [string | undefined, 'en' | 'de' | 'pl'][] = [
  [undefined, 'en'],
  ['de-DE,de;q=0.9', 'de'],
  ['pl', 'pl'],
  ['fr', 'en'],
  ['en-GB,de;q=0.8', 'en'],
  ['de;q=0.1, pl;q=0.9', 'pl'],
  [';;q=abc,,,=', 'en'],
]
const COOKIES = [undefined, 'en', 'de', 'pl', 'xx'] as const

const MATRIX = HEADERS.flatMap(([acceptLanguage, negotiated]) =>
  COOKIES.map((cookie) => ({
    acceptLanguage,
    cookie,
    // A valid cookie wins; without a header nothing but the cookie can redirect.
    expected: cookie && cookie !== 'xx' ? cookie : negotiated,
  })),
)

describe('root negotiation', () => {
  it.each(MATRIX)(
    'Accept-Language $acceptLanguage, cookie $cookie → $expected',
    async ({ acceptLanguage, cookie, expected }) => {
      const headers: Record<string, string> = {}
      if (acceptLanguage !== undefined) headers['accept-language'] = acceptLanguage
      if (cookie !== undefined) headers.cookie = `i18n_redirected=${cookie}`
      const response = await app.inject({ method: 'GET', url: '/?utm_source=news&x=1', headers })
      expect(response.headers['set-cookie']).toBeUndefined()
      if (expected === 'en') {
        // The page itself also varies on the encoding it is sent in.
        expect(response.headers.vary).toBe('Accept-Language, Cookie, Accept-Encoding')
        expect(response.statusCode).toBe(200)
        expect(response.headers.location).toBeUndefined()
        expect(response.body).toContain('<html lang="en"')
      } else {
        expect(response.statusCode).toBe(302)
        expect(response.headers.location).toBe(`/${expected}?utm_source=news&x=1`)
        expect(response.headers.vary).toBe('Accept-Language, Cookie')
        expect(response.headers['cache-control']).toBe('private, no-store')
      }
    },
  )

  it('never redirects deep links by language', async () => {
    for (const url of ['/about', '/de/about', '/pl/services']) {
      const response = await app.inject({
        method: 'GET',
        url,
        headers: { 'accept-language': 'pl', cookie: 'i18n_redirected=de' },
      })
      expect(response.statusCode, url).toBe(200)
      expect(response.headers['set-cookie']).toBeUndefined()
    }
  })
})

describe('the locale cookie, read by @fastify/cookie', () => {
  it.each([
    ['i18n_redirected=de', '/de'],
    ['theme=dark; i18n_redirected=pl; other=1', '/pl'],
    ['i18n_redirected=de; i18n_redirected=pl', '/de'],
  ])('%s → %s, whatever Accept-Language says', async (cookie, location) => {
    const response = await app.inject({
      url: '/',
      headers: { cookie, 'accept-language': 'en-GB' },
    })
    expect(response.statusCode).toBe(302)
    expect(response.headers.location).toBe(location)
  })

  it.each([
    'i18n_redirected=%E0%A4%A',
    'i18n_redirected',
    '=de; ;; i18n_redirected==',
    `i18n_redirected=${'d'.repeat(4000)}`,
    'i18n_redirected=de\u0000',
  ])('a malformed Cookie header (%s) falls back to Accept-Language', async (cookie) => {
    const withHeader = await app.inject({
      url: '/',
      headers: { cookie, 'accept-language': 'pl' },
    })
    expect(withHeader.statusCode).toBe(302)
    expect(withHeader.headers.location).toBe('/pl')
    const without = await app.inject({ url: '/', headers: { cookie } })
    expect(without.statusCode).toBe(200)
    expect(without.body).toContain('<html lang="en"')
  })
})

describe('canonical paths', () => {
  it.each([
    ['/en', '/'],
    ['/en/', '/'],
    ['/en/about', '/about'],
    ['/en/services/managed-it?x=1', '/services/managed-it?x=1'],
    ['/about/', '/about'],
    ['/de/', '/de'],
    ['/pl/contact/?service=cloud', '/pl/contact?service=cloud'],
    ['/en/team/jonas-weber/', '/team/jonas-weber'],
  ])('%s → 301 %s', async (url, location) => {
    const response = await app.inject({ method: 'GET', url })
    expect(response.statusCode).toBe(301)
    expect(response.headers.location).toBe(location)
  })

  it.each([
    '//evil.example/',
    '/en//evil.example',
    '/en/%2F%2Fevil.example',
    '/%2F%2Fevil.example/',
    '/en/%0d%0aSet-Cookie:%20x=1',
    '/about%0d%0aLocation:%20http://evil.example/',
    '/en/nope/',
  ])('%s answers 404, never an off-site or injected Location', async (url) => {
    const response = await app.inject({ method: 'GET', url })
    expect(response.statusCode).toBe(404)
    expect(response.headers.location).toBeUndefined()
    expect(response.headers['set-cookie']).toBeUndefined()
    // The localized 404 page inside the site chrome, however odd the path.
    expect(response.body).toContain('<meta name="robots" content="noindex"/>')
    expect(response.body).toContain('class="site-header"')
  })
})

function headLinks(body: string) {
  const head = body.slice(0, body.indexOf('</head>'))
  const canonical = /<link rel="canonical" href="([^"]+)"\/>/.exec(head)?.[1]
  const alternates: Record<string, string> = {}
  for (const [, lang = '', href = ''] of head.matchAll(
    /<link rel="alternate" hrefLang="([\w-]+)" href="([^"]+)"\/>/g,
  )) {
    alternates[lang] = href
  }
  return { head, canonical, alternates }
}

describe('head of every page', () => {
  it.each(LOCALIZED_PAGES)(
    '$path: absolute, reciprocal alternates',
    async ({ id, locale, path }) => {
      const response = await app.inject({ method: 'GET', url: path })
      const { head, canonical, alternates } = headLinks(response.body)
      const page = PAGES.find((candidate) => candidate.id === id)
      expect(canonical).toBe(`${BASE}${path}`)
      const expected = Object.fromEntries(
        LOCALES.map((other) => [other, `${BASE}${localizePath(other, page?.path ?? '')}`]),
      )
      expect(alternates).toEqual({ ...expected, 'x-default': expected.en })
      expect(alternates[locale]).toBe(canonical)
      expect(head).toContain(`<meta property="og:url" content="${BASE}${path}"/>`)
      expect(head).toMatch(/<meta property="og:title" content="[^"]+"\/>/)
      expect(head).toMatch(/<meta property="og:description" content="[^"]+"\/>/)
      expect(head.match(/og:locale:alternate/g)).toHaveLength(LOCALES.length - 1)
    },
  )
})

describe('sitemap and robots', () => {
  it('lists exactly the URLs of the page table, with alternates, as valid XML', async () => {
    const response = await app.inject({ method: 'GET', url: '/sitemap.xml' })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('application/xml; charset=utf-8')
    const parsed = new XMLParser({ ignoreAttributes: false }).parse(response.body) as {
      urlset: { url: { loc: string; 'xhtml:link': { '@_hreflang': string; '@_href': string }[] }[] }
    }
    const urls = parsed.urlset.url
    expect(urls.map((url) => url.loc).sort()).toEqual(
      LOCALIZED_PAGES.map(({ path }) => `${BASE}${path}`).sort(),
    )
    for (const url of urls) {
      const links = url['xhtml:link'].map((link) => link['@_hreflang'])
      expect(links).toEqual([...LOCALES, 'x-default'])
      expect(url['xhtml:link'].map((link) => link['@_href'])).toContain(url.loc)
    }
  })

  it('robots.txt points at the sitemap', async () => {
    const response = await app.inject({ method: 'GET', url: '/robots.txt' })
    expect(response.statusCode).toBe(200)
    expect(response.body).toContain(`Sitemap: ${BASE}/sitemap.xml`)
  })
})
