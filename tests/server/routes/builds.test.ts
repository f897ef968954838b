import { createHash } from 'node:crypto'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'

let app: FastifyInstance

beforeAll(async () => {
  app = await buildTestApp()
})

afterAll(async () => {
  await app.close()
})

describe('build manifests', () => {
  it('serve the latest build uncached and the own meta immutable', async () => {
    const { id, timestamp } = app.renderer.build
    const latest = await app.inject({ method: 'GET', url: '/assets/builds/latest.json?123' })
    expect(latest.statusCode).toBe(200)
    expect(latest.headers['cache-control']).toBe('no-cache')
    expect(latest.json()).toEqual({ id, timestamp })
    const meta = await app.inject({ method: 'GET', url: `/assets/builds/meta/${id}.json` })
    expect(meta.headers['cache-control']).toBe('public, max-age=31536000, immutable')
    expect(meta.json()).toEqual({ id, timestamp, prerendered: [] })
    const unknown = await app.inject({ method: 'GET', url: '/assets/builds/meta/0123abcd.json' })
    expect(unknown.statusCode).toBe(404)
    expect(unknown.json()).toEqual({ error: 'Unknown build' })
  })

  it('name the build on every response', async () => {
    const page = await app.inject({ method: 'GET', url: '/de' })
    const css = /href="(\/assets\/entry-client-[\w-]+\.css)"/.exec(page.body)?.[1] ?? ''
    for (const url of ['/de', '/nope', '/api/nope', '/healthz', '/robots.txt', css]) {
      const response = await app.inject({ method: 'GET', url })
      expect(response.headers['x-build-id'], url).toBe(app.renderer.build.id)
    }
  })

  it('embed the runtime configuration as data', async () => {
    const page = await app.inject({ method: 'GET', url: '/' })
    const json = /<script type="application\/json" id="runtime-config">([^<]+)<\/script>/.exec(
      page.body,
    )?.[1]
    expect(JSON.parse(json ?? '{}')).toEqual({
      app: {
        baseURL: '/',
        cdnURL: '',
        buildAssetsDir: '/assets/',
        buildId: app.renderer.build.id,
        buildTimestamp: app.renderer.build.timestamp,
        buildCheckIntervalMs: 3_600_000,
      },
    })
  })
})

describe('with CDN_URL', () => {
  it('links scripts from the CDN with their integrity, stylesheets from the site', async () => {
    const cdn = await buildTestApp({ CDN_URL: 'https://cdn.modernwerk.example' })
    try {
      const page = await cdn.inject({ method: 'GET', url: '/pl' })
      expect(page.body).toMatch(/<link rel="stylesheet" href="\/assets\/entry-client-[\w-]+\.css"/)
      expect(page.body).toMatch(
        /<script type="module" src="https:\/\/cdn\.modernwerk\.example\/assets\/entry-client-[\w-]+\.js" integrity="sha384-[\w+/]{64}" crossorigin=""/,
      )
      expect(page.body).toContain('"cdnURL":"https://cdn.modernwerk.example"')
      // The import map opens the head and is allowed by its hash, the CDN for scripts only.
      const map = /<head><meta charSet="utf-8"\/><script type="importmap">([^<]+)<\/script>/.exec(
        page.body,
      )?.[1]
      expect(map).toBeDefined()
      const csp = String(page.headers['content-security-policy'])
      const hash = createHash('sha256')
        .update(map ?? '')
        .digest('base64')
      expect(csp).toContain(`script-src 'self' https://cdn.modernwerk.example 'sha256-${hash}';`)
      expect(csp).toContain("style-src 'self';")
      expect(csp).toContain("font-src 'self';")
      const { integrity, imports } = JSON.parse(map ?? '{}') as {
        integrity: Record<string, string>
        imports: Record<string, string>
      }
      const entry = /src="(https:\/\/cdn[^"]+entry-client-[\w-]+\.js)"/.exec(page.body)?.[1] ?? ''
      expect(integrity[entry]).toMatch(/^sha384-/)
      expect(Object.keys(integrity).length).toBeGreaterThan(20)
      for (const [from, to] of Object.entries(imports)) {
        expect(from.replace('https://cdn.modernwerk.example', '')).toBe(to)
        expect(to).toMatch(/^\/assets\/[\w-]+\.css$/)
      }
    } finally {
      await cdn.close()
    }
  })
})

describe('client error beacon', () => {
  it('logs a small report and is rate limited', async () => {
    const report = { kind: 'chunk-load', path: '/de/about?x=1', buildId: 'abc123' }
    const first = await app.inject({ method: 'POST', url: '/api/client-errors', payload: report })
    expect(first.statusCode).toBe(204)
    const invalid = await app.inject({
      method: 'POST',
      url: '/api/client-errors',
      payload: { ...report, email: 'someone@example.com' },
    })
    expect(invalid.statusCode).toBe(400)
    let last = 0
    for (let attempt = 0; attempt < 10; attempt++) {
      last = (await app.inject({ method: 'POST', url: '/api/client-errors', payload: report }))
        .statusCode
    }
    expect(last).toBe(429)
  })
})
