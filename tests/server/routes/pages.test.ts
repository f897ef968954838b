import { request as httpRequest } from 'node:http'
import { connect, type AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { EVERY_PAGE_NAMESPACES } from '#shared/texts.ts'
import { LOCALIZED_PAGES } from '#shared/pages.ts'
import type { Locale } from '#shared/locales.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import { expectedDescription, expectedTitle } from '#tests/helpers/locales.ts'

let app: FastifyInstance

beforeAll(async () => {
  app = await buildTestApp()
})

afterAll(async () => {
  await app.close()
})

function title(html: string) {
  return /<title>([^<]*)<\/title>/.exec(html)?.[1]
}

describe('pages', () => {
  it.each(LOCALIZED_PAGES)('$path answers in $locale', async ({ id, locale, path }) => {
    const response = await app.inject({ method: 'GET', url: path })
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(response.body).toMatch(new RegExp(`^<!DOCTYPE html><html lang="${locale}"`))
    expect(response.statusCode).toBe(200)
    expect(title(response.body)).toBe(expectedTitle(id, locale))
    expect(response.body).toContain(
      `<meta name="description" content="${expectedDescription(id, locale)}"/>`,
    )
    // No placeholder left in what visitors see (the embedded texts keep theirs).
    const visible = response.body.replace(
      /<script type="application\/json"[^>]*>.*?<\/script>/gs,
      '',
    )
    expect(visible.includes('{{'), 'a {{placeholder}} in the page').toBe(false)
    // No link leads off the site (the privacy policy says so): paths, anchors, mail, phone.
    const targets = [...response.body.matchAll(/<a\b[^>]*\bhref="([^"]*)"/g)].map(
      ([, href]) => href,
    )
    expect(targets.length).toBeGreaterThan(5)
    for (const href of targets) expect(href).toMatch(/^(\/(?!\/)|#|mailto:|tel:)/)
  })

  it('renders the German home page in German, with hreflang alternates in the head', async () => {
    const response = await app.inject({ method: 'GET', url: '/de' })
    const head = response.body.slice(0, response.body.indexOf('</head>'))
    expect(head).toContain('<link rel="canonical" href="http://localhost:3000/de"/>')
    expect(head).toContain('<link rel="alternate" hrefLang="pl" href="http://localhost:3000/pl"/>')
    expect(head).toContain(
      '<link rel="alternate" hrefLang="x-default" href="http://localhost:3000/"/>',
    )
    expect(head).toMatch(/<meta name="description" content="[^"]*deutsche Rechenzentren/)
    expect(response.body).toContain('Modernisierung starten')
  })

  it('answers an unknown path with 404 and the path, escaped', async () => {
    const response = await app.inject({ method: 'GET', url: '/de/<script>alert(1)</script>' })
    expect(response.statusCode).toBe(404)
    expect(title(response.body)).toBe('Seite nicht gefunden')
    expect(response.body).toContain('Seite nicht gefunden: /de/%3Cscript%3Ealert(1)%3C/script%3E')
    expect(response.body).not.toContain('<script>alert(1)')
  })

  it('escapes characters that reach the message undecoded', async () => {
    const response = await app.inject({ method: 'GET', url: '/pl/a"b\'c&d' })
    expect(response.statusCode).toBe(404)
    expect(response.body).toContain('Nie znaleziono strony: /pl/a%22b&#x27;c&amp;d')
  })

  it('keeps the 404 page inside the site chrome with ways back', async () => {
    const response = await app.inject({ method: 'GET', url: '/no-such-page' })
    expect(response.statusCode).toBe(404)
    expect(response.body).toContain('Page not found: /no-such-page')
    expect(response.body).toContain('aria-label="Main navigation"')
    expect(response.body).toContain('Back to the home page')
    expect(response.body).toContain('<meta name="robots" content="noindex"/>')
  })

  it('answers the localized 404 page for other methods on page paths', async () => {
    const response = await app.inject({ method: 'POST', url: '/de/anything' })
    expect(response.statusCode).toBe(404)
    expect(title(response.body)).toBe('Seite nicht gefunden')
  })

  it('answers JSON 404 under /api/', async () => {
    const response = await app.inject({ method: 'GET', url: '/api/nothing' })
    expect(response.statusCode).toBe(404)
    expect(response.json()).toEqual({ error: 'Not Found' })
  })

  it('embeds only the current locale and no executable inline script', async () => {
    const response = await app.inject({ method: 'GET', url: '/pl' })
    const scripts = response.body.match(/<script\b[^>]*>/g) ?? []
    // Data blocks (structured data, app data) and the entry module; nothing executable inline.
    expect(scripts).toEqual([
      '<script type="application/ld+json">',
      '<script type="application/json" id="runtime-config">',
      '<script type="application/json" id="app-data">',
      expect.stringMatching(
        /^<script type="module" src="\/assets\/entry-client-[\w-]+\.js"[^>]*>$/,
      ),
    ])
    const json = /<script type="application\/json" id="app-data">([^<]*)<\/script>/.exec(
      response.body,
    )?.[1]
    const data = JSON.parse(json ?? '{}') as { locale: string; resources: object }
    expect(data.locale).toBe('pl')
    expect(Object.keys(data.resources).sort()).toEqual([...EVERY_PAGE_NAMESPACES, 'home'].sort())
    expect(response.headers['content-security-policy']).toContain("script-src 'self'")
    expect(response.headers['content-security-policy']).not.toContain('unsafe-inline')
  })

  it('links the stylesheet and font for the first paint, and names the chunks to load after it', async () => {
    const response = await app.inject({ method: 'GET', url: '/' })
    // Scripts wait for the first paint: only React's low-priority hint for the small entry,
    // no module preload competes with the stylesheet and the font.
    expect(response.body.match(/<link rel="modulepreload"[^>]*>/g)).toEqual([
      expect.stringMatching(/fetchPriority="low" href="\/assets\/entry-client-[\w-]+\.js"/),
    ])
    const json = /<script type="application\/json" id="app-data">([^<]*)<\/script>/.exec(
      response.body,
    )?.[1]
    const { assets } = JSON.parse(json ?? '{}') as { assets: { modules: string[] } }
    expect(assets.modules).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^\/assets\/home-[\w-]+\.js$/),
        expect.stringMatching(/^\/assets\/hydrate-[\w-]+\.js$/),
        expect.stringMatching(/^\/assets\/framework-[\w-]+\.js$/),
      ]),
    )
    expect(response.body).toMatch(
      /<link rel="stylesheet" href="\/assets\/entry-client-[\w-]+\.css"/,
    )
    expect(response.body).toMatch(
      /<link rel="preload" href="\/assets\/inter-subset-latin-[\w-]+\.woff2" as="font"/,
    )
  })

  it('serves hashed assets immutable and nothing outside the build', async () => {
    const page = await app.inject({ method: 'GET', url: '/' })
    const css = /href="(\/assets\/entry-client-[\w-]+\.css)"/.exec(page.body)?.[1] ?? ''
    const asset = await app.inject({ method: 'GET', url: css })
    expect(asset.statusCode).toBe(200)
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(asset.headers['content-type']).toBe('text/css; charset=utf-8')
    const revalidated = await app.inject({
      method: 'GET',
      url: css,
      headers: { 'if-none-match': String(asset.headers.etag) },
    })
    expect(revalidated.statusCode).toBe(304)
    expect(revalidated.body).toBe('')
    const head = await app.inject({ method: 'HEAD', url: css })
    expect(head.statusCode).toBe(200)
    expect(head.headers['content-length']).toBe(String(asset.rawPayload.length))
    expect((await app.inject({ method: 'GET', url: '/.vite/manifest.json' })).statusCode).toBe(404)
    const traversal = await app.inject({ method: 'GET', url: '/assets/..%2f..%2fpackage.json' })
    expect(traversal.statusCode).toBe(404)
    expect(traversal.body).not.toContain('"dependencies"')
  })
})

describe('streaming', () => {
  it('sends the complete head in the first bytes, before any body content', async () => {
    await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = app.server.address() as AddressInfo
    const first = await new Promise<string>((resolve, reject) => {
      httpRequest({ host: '127.0.0.1', port, path: '/de' }, (response) => {
        response.once('data', (chunk: Buffer) => {
          resolve(chunk.toString('utf8'))
          response.destroy()
        })
      })
        .on('error', reject)
        .end()
    })
    expect(first).toMatch(/^<!DOCTYPE html><html lang="de"/)
    const headEnd = first.indexOf('</head>')
    expect(headEnd).toBeGreaterThan(0)
    const head = first.slice(0, headEnd)
    expect(head).toContain('<title>')
    expect(head).toContain('rel="canonical"')
    expect(head).toContain('hrefLang="x-default"')
  })
})

describe('render failures', () => {
  it('answers 500 with the localized error page and no internals', async () => {
    const broken = await buildTestApp()
    // A page text that throws when read: a real exception inside React's render of the page.
    const exploding = {
      get title(): string {
        throw new Error('secret internal detail /srv/app/stack')
      },
    }
    broken.i18n.addResourceBundle('de', 'home', { meta: exploding }, false, true, {
      skipCopy: true,
    })
    try {
      const response = await broken.inject({ method: 'GET', url: '/de' })
      expect(response.statusCode).toBe(500)
      expect(title(response.body)).toBe('Interner Serverfehler')
      expect(response.body).toContain('aria-label="Hauptnavigation"')
      expect(response.body).not.toContain('secret internal detail')
      expect(response.body).not.toMatch(/at \w+ \(/)
    } finally {
      await broken.close()
    }
  })

  it('falls back to a static error page when even the error page cannot render', async () => {
    const broken = await buildTestApp(
      {},
      {
        wrapRenderer: (renderer) => ({
          ...renderer,
          render: () => Promise.reject(new Error('secret: renderer down')),
        }),
      },
    )
    try {
      const response = await broken.inject({ method: 'GET', url: '/pl' })
      expect(response.statusCode).toBe(500)
      expect(title(response.body)).toBe('Wewnętrzny błąd serwera')
      expect(response.body).toContain('<html lang="pl">')
      expect(response.body).not.toContain('secret')
    } finally {
      await broken.close()
    }
  })
})

describe('crawlers', () => {
  it('get the complete document with status and head, like people', async () => {
    const response = await app.inject({
      method: 'GET',
      url: '/de',
      headers: {
        'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)',
      },
    })
    expect(response.statusCode).toBe(200)
    expect(response.body).toContain('<link rel="canonical" href="http://localhost:3000/de"/>')
    expect(response.body).toMatch(/<\/html>$/)
    expect(response.body).not.toMatch(/<script>|\$RC|\$RX/)
  })
})

/** A GET with the request target sent byte for byte (no client normalizes it first). */
async function rawGet(target: string) {
  if (!app.server.listening) await app.listen({ port: 0, host: '127.0.0.1' })
  const { port } = app.server.address() as AddressInfo
  const socket = connect(port, '127.0.0.1')
  socket.write(`GET ${target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`)
  let raw = ''
  for await (const chunk of socket) raw += (chunk as Buffer).toString('utf8')
  const [head = '', body = ''] = raw.split('\r\n\r\n', 2)
  return { statusLine: head.split('\r\n')[0], head, body }
}

describe('crafted paths', () => {
  it.each([
    '//evil.example',
    '//evil.example/de',
    '/\\evil.example',
    '/\\evil.example/',
    '/en/\\evil.example/',
    '/%2F%2Fevil.example',
  ])('%s stays on our site and answers 404', async (target) => {
    const response = await rawGet(target)
    expect(response.statusLine).toBe('HTTP/1.1 404 Not Found')
    expect(response.head.toLowerCase()).not.toContain('location:')
    expect(response.body).not.toContain('evil.example"')
    expect(response.body).toContain('<title>Page Not Found</title>')
  })

  it('answers HEAD like GET, without a body', async () => {
    const response = await app.inject({ method: 'HEAD', url: '/de' })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(response.body).toBe('')
  })
})

/** A page's text as visitors read it: no scripts or styles, every tag a separator. */
function visibleText(html: string) {
  return html
    .replace(/<(script|style)[^>]*>.*?<\/\1>/gs, '')
    .replace(/<[^>]*>/g, '\u0001')
    .replace(/&nbsp;/g, '\u00A0')
}

describe('typography in the rendered HTML (shared/typography.ts)', () => {
  /**
   * What each language binds with a no-break space, found here with a plain one; a language
   * without typography rules has nothing to check.
   */
  const UNBOUND: Partial<Record<Locale, RegExp>> = {
    de: /(?:§|Abs\.|Art\.|Nr\.|lit\.) [\da-z]|\d (?:%|Uhr|Mio\.)(?!\p{L})|(?<!\p{L})\p{L}\. \p{L}\./gu,
    pl: /(?<![\p{L}\p{N}\p{M}_.@/\\'’-])[aiouwzAIOUWZ] (?=\S)|(?:§|art\.|ust\.) \d|\d (?:%|r\.)/gu,
  }
  const pages = LOCALIZED_PAGES.flatMap(({ locale, path }) => {
    const rule = UNBOUND[locale]
    return rule ? [{ locale, path, rule }] : []
  })

  it.each(pages)('$path binds what $locale typography binds', async ({ path, rule }) => {
    const response = await app.inject({ method: 'GET', url: path })
    const text = visibleText(response.body)
    const unbound = [...text.matchAll(rule)].map((match) =>
      text.slice(Math.max(0, match.index - 20), match.index + 20),
    )
    expect(unbound).toEqual([])
  })

  it('writes the no-break spaces into the German and Polish HTML', async () => {
    const german = (await app.inject({ method: 'GET', url: '/de/privacy-policy' })).body
    expect(german).toContain('Art.\u00A06 Abs.\u00A01 lit.\u00A0f DSGVO')
    const polish = (await app.inject({ method: 'GET', url: '/pl/privacy-policy' })).body
    expect(polish).toContain('art.\u00A06 ust.\u00A01 lit.\u00A0f RODO')
    expect(visibleText(polish)).toMatch(/ w\u00A0\p{L}/u)
    const uptime = (await app.inject({ method: 'GET', url: '/de/services/cloud-infrastructure' }))
      .body
    expect(uptime).toContain('99,9\u00A0%')
  })
})
