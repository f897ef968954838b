// A page kept in memory is answered before the request hooks, with the headers they wrote
// when it was kept (server/render/serve-page.ts, `replayKeptPage`). What a visitor gets must
// not change: Helmet's headers exactly, the site's own, its own request id, the view counted,
// 304s and encodings as on the route, and 503 while overloaded.
import { IncomingMessage, ServerResponse } from 'node:http'
import { Socket } from 'node:net'
import type { FastifyInstance, LightMyRequestResponse } from 'fastify'
import helmet from 'helmet'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { currentYear } from '#server/render/page-cache.ts'
import { helmetOptions } from '#server/plugins/security-headers.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import { whileOverloaded } from '#tests/helpers/overload.ts'

/** The headers Helmet itself writes with these options, on a bare Node.js response. */
function helmetsOwn(hstsMaxAge: number): Record<string, string> {
  // @fastify/helmet passes Helmet everything but its own two options.
  const options = Object.fromEntries(
    Object.entries(
      helmetOptions({ isDevelopment: false, cdnUrl: undefined, inlineScripts: [], hstsMaxAge }),
    ).filter(([name]) => name !== 'global' && name !== 'enableCSPNonces'),
  )
  const request = new IncomingMessage(new Socket())
  const response = new ServerResponse(request)
  helmet(options)(request, response, () => {})
  return Object.fromEntries(
    Object.entries(response.getHeaders()).map(([name, value]) => [name, String(value)]),
  )
}

/** Headers that are not Helmet's: the page's own, the site's hook's, the connection's. */
const NOT_HELMETS = new Set([
  'content-type',
  'cache-control',
  'etag',
  'vary',
  'content-length',
  'content-encoding',
  'date',
  'connection',
  'keep-alive',
  'transfer-encoding',
  'permissions-policy',
  'reporting-endpoints',
  'x-build-id',
  'x-request-id',
])

function helmetsPart(response: LightMyRequestResponse): Record<string, string> {
  return Object.fromEntries(
    Object.entries(response.headers)
      .filter(([name]) => !NOT_HELMETS.has(name))
      .map(([name, value]) => [name, String(value)]),
  )
}

/** The page rendered once and kept: the first answer fills the cache, in the background. */
async function keep(app: FastifyInstance, path: string) {
  const rendered = await app.inject({ url: path })
  expect(rendered.statusCode).toBe(200)
  await vi.waitFor(() => expect(app.pageCache.has(path)).toBe(true), { timeout: 10_000 })
  return rendered
}

const PERSON = {
  'user-agent': 'Mozilla/5.0 (X11; Linux x86_64; rv:140.0) Gecko/20100101 Firefox/140.0',
  'sec-fetch-dest': 'document',
  'sec-fetch-mode': 'navigate',
  'accept-encoding': 'br, gzip',
}

describe('a kept page answered before the request hooks', () => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await buildTestApp()
  }, 60_000)
  afterAll(() => app.close())

  it("carries exactly the headers Helmet writes with the site's options, and the site's own", async () => {
    const rendered = await keep(app, '/de/services')
    const first = await app.inject({ url: '/de/services' })
    const second = await app.inject({ url: '/de/services' })
    const expected = helmetsOwn(app.config.HSTS_MAX_AGE)
    expect(Object.keys(expected).length).toBeGreaterThan(10)
    expect(helmetsPart(rendered)).toEqual(expected)
    for (const hit of [first, second]) {
      expect(hit.statusCode).toBe(200)
      expect(hit.body).toBe(rendered.body)
      expect(helmetsPart(hit)).toEqual(expected)
      for (const name of ['permissions-policy', 'reporting-endpoints', 'x-build-id', 'etag']) {
        expect(hit.headers[name], name).toBe(rendered.headers[name])
      }
      expect(hit.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(hit.headers['cache-control']).toBe('no-cache')
    }
    // Each answer its own request id, as the log line of each request names it.
    const ids = [rendered, first, second].map((response) => response.headers['x-request-id'])
    expect(new Set(ids).size).toBe(3)
  })

  it('answers a conditional with 304 and picks the encoding the client accepts', async () => {
    const rendered = await keep(app, '/pl/contact')
    const etag = String(rendered.headers.etag)
    const notModified = await app.inject({ url: '/pl/contact', headers: { 'if-none-match': etag } })
    expect(notModified.statusCode).toBe(304)
    expect(notModified.body).toBe('')
    expect(helmetsPart(notModified)).toEqual(helmetsOwn(app.config.HSTS_MAX_AGE))
    // Brotli and gzip are made in the background once the page is kept.
    await vi.waitFor(
      async () => {
        const response = await app.inject({
          url: '/pl/contact',
          headers: { 'accept-encoding': 'gzip' },
        })
        expect(response.headers['content-encoding']).toBe('gzip')
      },
      { timeout: 10_000 },
    )
  })

  it("counts a person's view of a page answered from memory", async () => {
    await keep(app, '/about')
    const views = async () =>
      (await app.metrics.getSingleMetric('page_views_total')?.get())?.values
        .filter((value) => value.labels.page === 'about' && value.labels.locale === 'en')
        .reduce((sum, value) => sum + value.value, 0) ?? 0
    const before = await views()
    const response = await app.inject({ url: '/about', headers: PERSON })
    expect(response.statusCode).toBe(200)
    expect(await views()).toBe(before + 1)
  })

  it("answers unknown paths from the locale's 404 template with Helmet's headers, each its own", async () => {
    const rendered = await app.inject({ url: '/de/gibt-es-nicht' })
    expect(rendered.statusCode).toBe(404)
    await vi.waitFor(() => expect(app.pageCache.notFound('de', currentYear())).toBeDefined(), {
      timeout: 10_000,
    })
    const expected = helmetsOwn(app.config.HSTS_MAX_AGE)
    expect(helmetsPart(rendered)).toEqual(expected)
    const hits = await Promise.all(
      ['/de/alte-seite', '/de/noch-eine'].map((url) => app.inject({ url })),
    )
    for (const [index, hit] of hits.entries()) {
      expect(hit.statusCode).toBe(404)
      expect(hit.headers['content-type']).toBe('text/html; charset=utf-8')
      expect(hit.headers['cache-control']).toBe('no-cache')
      expect(helmetsPart(hit)).toEqual(expected)
      for (const name of ['permissions-policy', 'reporting-endpoints', 'x-build-id']) {
        expect(hit.headers[name], name).toBe(rendered.headers[name])
      }
      // The page names the path that was asked for, in the locale's language.
      const path = index === 0 ? '/de/alte-seite' : '/de/noch-eine'
      expect(hit.body).toContain(path)
      expect(hit.body).toContain('lang="de"')
    }
    const ids = [rendered, ...hits].map((response) => response.headers['x-request-id'])
    expect(new Set(ids).size).toBe(3)
    // The API's space keeps its JSON 404, also once a 404 page is kept.
    const api = await app.inject({ url: '/api/nothing-here' })
    expect(api.statusCode).toBe(404)
    expect(api.json()).toEqual({ error: 'Not Found' })
  })

  it('leaves the root of a German browser to the negotiation: a redirect, not the English page', async () => {
    await keep(app, '/')
    const response = await app.inject({ url: '/', headers: { 'accept-language': 'de-DE,de' } })
    expect(response.statusCode).toBe(302)
    expect(response.headers.location).toBe('/de')
    const english = await app.inject({ url: '/', headers: { 'accept-language': 'en' } })
    expect(english.statusCode).toBe(200)
    expect(english.headers.vary).toBe('Accept-Language, Cookie, Accept-Encoding')
  })
})

describe('a kept page, on an app of its own', () => {
  /** A test app with these settings for one test, closed after it. */
  async function withApp(
    env: Record<string, string>,
    use: (app: FastifyInstance) => Promise<void>,
  ) {
    const app = await buildTestApp(env)
    try {
      await use(app)
    } finally {
      await app.close()
    }
  }

  it('is refused with 503 like every other request while overloaded', async () => {
    await withApp({ MAX_EVENT_LOOP_DELAY_MS: '100' }, async (app) => {
      await keep(app, '/about')
      const response = await whileOverloaded(app, { url: '/about' })
      expect(response.statusCode).toBe(503)
      expect(response.headers['retry-after']).toBeDefined()
    })
  }, 60_000)

  it('carries the headers of the new options after a restart with another Helmet option', async () => {
    await withApp({ HSTS_MAX_AGE: '0' }, async (app) => {
      await keep(app, '/de/services')
      const hit = await app.inject({ url: '/de/services' })
      expect(hit.headers['strict-transport-security']).toBeUndefined()
      expect(helmetsPart(hit)).toEqual(helmetsOwn(0))
      expect(helmetsOwn(0)).not.toEqual(helmetsOwn(31_536_000))
    })
  }, 60_000)
})
