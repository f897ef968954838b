import { brotliDecompressSync, gunzipSync } from 'node:zlib'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { currentYear, FORM_PAGE_WINDOW_MS, pageEdition } from '#server/render/page-cache.ts'
import { SERVICES } from '#shared/services.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import { eventually } from '#tests/helpers/eventually.ts'

let app: FastifyInstance | undefined
afterEach(async () => {
  await app?.close()
  app = undefined
})

async function countingApp() {
  let renders = 0
  app = await buildTestApp(
    {},
    {
      wrapRenderer: (renderer) => ({
        ...renderer,
        render: (options) => {
          renders++
          return renderer.render(options)
        },
      }),
    },
  )
  return { app, renders: () => renders }
}

/**
 * The cache fills in the background once a response's stream ended (and compresses after
 * that): wait until it holds the page with both compressed forms, not for a fixed time that a
 * busy machine may overrun.
 */
async function cachedWithEncodings(app: FastifyInstance, path: string) {
  await eventually(() => {
    const page = app.pageCache.get(path, pageEdition(new URL(path, 'http://site').pathname))
    return page?.br !== undefined && page.gzip !== undefined
  })
}

/** A response's body as the browser reads it, whatever its encoding. */
function decoded(response: LightMyRequestResponse): string {
  const encoding = response.headers['content-encoding']
  if (encoding === 'br') return brotliDecompressSync(response.rawPayload).toString('utf8')
  if (encoding === 'gzip') return gunzipSync(response.rawPayload).toString('utf8')
  return response.body
}

describe('page cache', () => {
  it('renders a page once and serves the same bytes again, compressed when asked', async () => {
    const { app, renders } = await countingApp()
    const first = await app.inject({ method: 'GET', url: '/de/about' })
    await cachedWithEncodings(app, '/de/about')
    const second = await app.inject({ method: 'GET', url: '/de/about' })
    expect(second.statusCode).toBe(200)
    expect(second.body).toBe(first.body)
    expect(second.headers.etag).toBe(first.headers.etag)
    expect(second.headers['content-security-policy']).toContain("script-src 'self'")
    expect(renders()).toBe(1)

    const compressed = await app.inject({
      method: 'GET',
      url: '/de/about',
      headers: { 'accept-encoding': 'br' },
    })
    expect(compressed.headers['content-encoding']).toBe('br')
    expect(brotliDecompressSync(compressed.rawPayload).toString('utf8')).toBe(first.body)
    expect(renders()).toBe(1)
  })

  it('keeps a page with a form for one token window, then renders it with a new token', async () => {
    const { app, renders } = await countingApp()
    const token = (body: string) => /name="token" value="([^"]+)"/.exec(body)?.[1]
    const first = await app.inject({ method: 'GET', url: '/pl/contact' })
    await cachedWithEncodings(app, '/pl/contact')
    const again = await app.inject({ method: 'GET', url: '/pl/contact' })
    expect(token(again.body)).toBe(token(first.body))
    expect(token(first.body)).toMatch(/^2\.[\w-]{8}\.p\./)
    expect(renders()).toBe(1)
    // The window's edition is in the cache key and the validator: the next window renders.
    const now = Date.now()
    expect(pageEdition('/pl/contact', now)).not.toBe(
      pageEdition('/pl/contact', now + FORM_PAGE_WINDOW_MS),
    )
    expect(pageEdition('/pl/about', now)).toBe(pageEdition('/pl/about', now + FORM_PAGE_WINDOW_MS))
    expect(pageEdition('/pl/contact', now)).toMatch(new RegExp(`^${currentYear(now)}\\.\\d+$`))
  })

  it('keeps the root page varying on language and cookie when served from memory', async () => {
    const { app, renders } = await countingApp()
    await app.inject({ method: 'GET', url: '/' })
    await cachedWithEncodings(app, '/')
    const cached = await app.inject({
      method: 'GET',
      url: '/',
      headers: { 'accept-encoding': 'gzip' },
    })
    expect(renders()).toBe(1)
    expect(cached.headers['content-encoding']).toBe('gzip')
    expect(cached.headers.vary).toBe('Accept-Language, Cookie, Accept-Encoding')
    const german = await app.inject({
      method: 'GET',
      url: '/',
      headers: { 'accept-language': 'de' },
    })
    expect(german.statusCode).toBe(302)
    expect(german.headers.location).toBe('/de')
    const refused = await app.inject({
      method: 'GET',
      url: '/',
      headers: { 'accept-encoding': 'br;q=0, gzip;q=0' },
    })
    expect(refused.headers['content-encoding']).toBeUndefined()
  })

  it.each([
    // Exact Accept-Encoding headers of current browsers, and q-values that overrule the order.
    ['Chromium, Edge, Firefox', 'gzip, deflate, br, zstd', 'br'],
    ['Safari', 'gzip, deflate, br', 'br'],
    ['curl --compressed', 'deflate, gzip, br, zstd', 'br'],
    ['a client preferring gzip', 'gzip;q=1, br;q=0.5', 'gzip'],
    ['a client refusing Brotli', 'br;q=0, gzip', 'gzip'],
    ['a client taking anything', '*', 'br'],
    ['a client taking only deflate', 'deflate', undefined],
    ['a client asking for the body as it is', 'identity', undefined],
  ])('%s (%s) gets %s, kept, rendered and 404 alike', async (_client, accept, encoding) => {
    const { app } = await countingApp()
    const headers = { 'accept-encoding': accept }
    const rendered = await app.inject({ url: '/de/about', headers })
    await cachedWithEncodings(app, '/de/about')
    const kept = await app.inject({ url: '/de/about', headers })
    const missing = await app.inject({ url: '/de/no-such-page', headers })
    for (const response of [rendered, kept, missing]) {
      expect(response.headers['content-encoding']).toBe(encoding)
      expect(response.headers.vary).toContain('Accept-Encoding')
    }
    const plain = await app.inject({ url: '/de/about' })
    expect(decoded(kept)).toBe(plain.body)
    expect(decoded(rendered)).toBe(plain.body)
  })

  it('sends a page kept a moment ago compressed while its compressed forms are made', async () => {
    const { app, renders } = await countingApp()
    const first = await app.inject({ url: '/pl/about' })
    await eventually(() => app.pageCache.get('/pl/about', pageEdition('/pl/about')) !== undefined)
    // The forms made in the background are dropped, as they are before they are ready.
    const page = app.pageCache.get('/pl/about', pageEdition('/pl/about'))
    await cachedWithEncodings(app, '/pl/about')
    delete page?.br
    delete page?.gzip
    for (const accept of ['gzip, deflate, br, zstd', 'gzip']) {
      const response = await app.inject({
        url: '/pl/about',
        headers: { 'accept-encoding': accept },
      })
      expect(response.headers['content-encoding']).toBe(accept === 'gzip' ? 'gzip' : 'br')
      expect(decoded(response)).toBe(first.body)
    }
    expect(renders()).toBe(1)
  })

  it('serves campaign links and unknown parameters the kept page: a flood of queries renders nothing', async () => {
    const { app, renders } = await countingApp()
    const clean = await app.inject({ url: '/de/about' })
    await cachedWithEncodings(app, '/de/about')
    const campaigns = [
      '/de/about?utm_source=newsletter&utm_medium=email&utm_campaign=herbst',
      '/de/about?gclid=EAIaIQobChMI',
      '/de/about?fbclid=IwAR3x',
      '/de/about?msclkid=4f2a&mc_cid=9b1&mc_eid=77',
      '/de/about?service=cloud&sent=contact',
      ...Array.from({ length: 50 }, (_, index) => `/de/about?q${index}=${index}`),
    ]
    for (const url of campaigns) {
      const response = await app.inject({ url })
      expect(response.statusCode, url).toBe(200)
      expect(response.body, url).toBe(clean.body)
      expect(response.headers.etag, url).toBe(clean.headers.etag)
    }
    expect(renders()).toBe(1)
    // The canonical link already names the address without the query.
    expect(clean.body).toContain('rel="canonical" href="http://localhost:3000/de/about"')
  })

  it('keeps a form page apart for each query it reads, and serves campaigns of it from there', async () => {
    const { app, renders } = await countingApp()
    const service = SERVICES[0].interest
    const plain = await app.inject({ url: '/contact' })
    const preselected = await app.inject({ url: `/contact?service=${service}` })
    expect(renders()).toBe(2)
    expect(preselected.body).not.toBe(plain.body)
    expect(preselected.body).toMatch(new RegExp(`<option value="${service}" selected=""`))
    await cachedWithEncodings(app, `/contact?service=${service}`)
    const campaign = await app.inject({
      url: `/contact?utm_source=linkedin&service=${service}&gclid=x`,
    })
    expect(campaign.body).toBe(preselected.body)
    // A choice the form does not offer, or another form's answer, is no query the page reads.
    for (const url of ['/contact?service=%3Cscript%3E', '/contact?sent=home']) {
      await cachedWithEncodings(app, '/contact')
      expect((await app.inject({ url })).body, url).toBe(plain.body)
    }
    expect(renders()).toBe(2)
    // The answer to a plain post is the page read with its own query.
    const sent = await app.inject({ url: '/contact?sent=contact&utm_source=email' })
    expect(sent.body).not.toBe(plain.body)
    expect(renders()).toBe(3)
  })

  it('never keeps a failed render', async () => {
    const { app } = await countingApp()
    const original = app.i18n.getResourceBundle('pl', 'home') as Record<string, unknown>
    app.i18n.addResourceBundle(
      'pl',
      'home',
      {
        meta: {
          get title(): string {
            throw new Error('broken text')
          },
        },
      },
      false,
      true,
      { skipCopy: true },
    )
    expect((await app.inject({ method: 'GET', url: '/pl' })).statusCode).toBe(500)
    app.i18n.addResourceBundle('pl', 'home', original, false, true, { skipCopy: true })
    await new Promise((resolve) => setTimeout(resolve, 100))
    expect((await app.inject({ method: 'GET', url: '/pl' })).statusCode).toBe(200)
  })

  it('answers unknown paths from the locale 404 template, identical to a render', async () => {
    const { app, renders } = await countingApp()
    const first = await app.inject({ method: 'GET', url: '/de/no-such-page' })
    expect(first.statusCode).toBe(404)
    expect(first.body).toContain('/de/no-such-page')
    // Kept as the locale's template once the stream ended.
    await eventually(() => app.pageCache.notFound('de', currentYear()) !== undefined)

    const second = await app.inject({ method: 'GET', url: '/de/another/missing-page.html' })
    expect(renders()).toBe(1)
    expect(second.statusCode).toBe(404)
    expect(second.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(second.headers['content-security-policy']).toContain("script-src 'self'")
    expect(second.body).toBe(
      first.body.replace('/de/no-such-page', '/de/another/missing-page.html'),
    )

    // Another locale has its own template; a path React would escape is rendered.
    const polish = await app.inject({ method: 'GET', url: '/pl/brak' })
    expect(polish.body).toContain('Nie znaleziono strony: /pl/brak')
    expect(renders()).toBe(2)
    const quoted = await app.inject({ method: 'GET', url: "/de/it's" })
    expect(quoted.body).toContain('/de/it&#x27;s')
    expect(renders()).toBe(3)

    // Made per request, so compressed per request, as a render would be.
    const compressed = await app.inject({
      method: 'GET',
      url: '/de/third/missing',
      headers: { 'accept-encoding': 'br, gzip' },
    })
    expect(compressed.statusCode).toBe(404)
    expect(compressed.headers['content-encoding']).toBe('br')
    expect(compressed.headers.vary).toBe('Accept-Encoding')
    expect(brotliDecompressSync(compressed.rawPayload).toString('utf8')).toBe(
      first.body.replace('/de/no-such-page', '/de/third/missing'),
    )
    expect(renders()).toBe(3)
  })

  it('reads paths with dot segments or escapes as the URL they stand for', async () => {
    const { app } = await countingApp()
    const page = await app.inject({ method: 'GET', url: '/de/about' })
    for (const url of ['/de/./about', '/de/services/../about', '/de/services/%2e%2e/about']) {
      const response = await app.inject({ method: 'GET', url })
      expect(response.statusCode, url).toBe(200)
      expect(response.body, url).toBe(page.body)
    }
    const escaped = await app.inject({ method: 'GET', url: '/de/%C3%BCber' })
    expect(escaped.statusCode).toBe(404)
    expect(escaped.body).toContain('/de/%C3%BCber')
  })
})
