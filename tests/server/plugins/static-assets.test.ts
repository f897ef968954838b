import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, brotliDecompressSync, gunzipSync, gzipSync } from 'node:zlib'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'

const DIST = join(import.meta.dirname, '..', '..', '..', 'dist')
const IMMUTABLE = 'public, max-age=31536000, immutable'
const REVALIDATE = 'public, max-age=3600, must-revalidate'

/** A hashed chunk of the release before this one, as the image carries it. */
const PREVIOUS_CHUNK = '/assets/previous-Check123.js'
const PREVIOUS_SOURCE = `export const previousRelease = "still served"; ${'// padding\n'.repeat(200)}`

let work: string
let app: FastifyInstance
let script: string

beforeAll(async () => {
  // The build as the image has it: this build's files plus the previous release's chunk (with
  // its precompressed twins), beside the same server bundle.
  work = mkdtempSync(join(tmpdir(), 'static-assets-'))
  for (const entry of ['server', 'build-info.json', 'share-images.json']) {
    symlinkSync(join(DIST, entry), join(work, entry))
  }
  cpSync(join(DIST, 'client'), join(work, 'client'), { recursive: true })
  const chunk = join(work, 'client', PREVIOUS_CHUNK)
  writeFileSync(chunk, PREVIOUS_SOURCE)
  writeFileSync(`${chunk}.br`, brotliCompressSync(PREVIOUS_SOURCE))
  writeFileSync(`${chunk}.gz`, gzipSync(PREVIOUS_SOURCE))
  app = await buildTestApp({}, { distDir: work })
  const page = await app.inject({ url: '/' })
  script = /src="(\/assets\/entry-client-[\w-]+\.js)"/.exec(page.body)?.[1] ?? ''
  expect(script).not.toBe('')
})

afterAll(async () => {
  await app.close()
  rmSync(work, { recursive: true, force: true })
})

describe('hashed files under /assets/', () => {
  it.each([
    // Accept-Encoding → the form sent; q-values as @fastify/accept-negotiator weighs them.
    ['br, gzip', 'br'],
    ['gzip, deflate, br, zstd', 'br'],
    ['gzip', 'gzip'],
    ['br;q=0, gzip', 'gzip'],
    ['gzip;q=1, br;q=0.5', 'gzip'],
    ['br;q=0.2, gzip;q=0.8', 'gzip'],
    ['*', 'gzip'],
    ['identity', undefined],
    [undefined, undefined],
  ])(
    'Accept-Encoding %s: sent as %s, immutable, varying by encoding, to any origin',
    async (accept, encoding) => {
      const headers = accept === undefined ? {} : { 'accept-encoding': accept }
      const plain = await app.inject({ url: script })
      const response = await app.inject({ url: script, headers })
      expect(response.statusCode).toBe(200)
      expect(response.headers['content-encoding']).toBe(encoding)
      expect(response.headers['cache-control']).toBe(IMMUTABLE)
      // A CDN passes it on: the site's pages load the scripts from there in CORS mode.
      expect(response.headers['access-control-allow-origin']).toBe('*')
      expect(response.headers.vary).toBe('Accept-Encoding')
      expect(String(response.headers['content-type'])).toMatch(/^(text|application)\/javascript/)
      // Whatever the encoding, the browser ends up with the same script.
      const body =
        encoding === 'br'
          ? brotliDecompressSync(response.rawPayload)
          : encoding === 'gzip'
            ? gunzipSync(response.rawPayload)
            : response.rawPayload
      expect(body.equals(plain.rawPayload)).toBe(true)
    },
  )

  it('answer a revalidation with 304 by ETag or Last-Modified', async () => {
    const first = await app.inject({ url: script, headers: { 'accept-encoding': 'br' } })
    expect(first.headers.etag).toBeDefined()
    expect(first.headers['last-modified']).toBeDefined()
    const byEtag = await app.inject({
      url: script,
      headers: { 'accept-encoding': 'br', 'if-none-match': String(first.headers.etag) },
    })
    expect(byEtag.statusCode).toBe(304)
    expect(byEtag.body).toBe('')
    const byDate = await app.inject({
      url: script,
      headers: {
        'accept-encoding': 'br',
        'if-modified-since': String(first.headers['last-modified']),
      },
    })
    expect(byDate.statusCode).toBe(304)
  })

  it("serve the previous release's chunks too, which its open pages still load", async () => {
    const response = await app.inject({
      url: PREVIOUS_CHUNK,
      headers: { 'accept-encoding': 'gzip' },
    })
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-encoding']).toBe('gzip')
    expect(response.headers['cache-control']).toBe(IMMUTABLE)
    expect(gunzipSync(response.rawPayload).toString()).toContain('still served')
  })

  it('a missing one is a plain 404, not a page', async () => {
    for (const url of ['/assets/gone-Abc123.js', '/assets/share/gone.png', '/assets/']) {
      const response = await app.inject({ url })
      expect(response.statusCode, url).toBe(404)
      expect(response.headers['content-type'], url).toBe('text/plain; charset=utf-8')
      expect(response.body, url).toBe('Not Found')
    }
  })

  it('are no directory listing, and the twins and the manifest are not files of their own', async () => {
    for (const url of [
      '/assets',
      '/assets/share',
      '/assets/share/',
      `${script}.br`,
      `${script}.gz`,
      '/.vite/manifest.json',
      '/.vite/',
    ]) {
      const response = await app.inject({ url, headers: { 'accept-encoding': 'br' } })
      expect(response.statusCode, url).toBe(404)
      expect(response.body, url).not.toMatch(/entry-client|"file":/)
    }
  })
})

describe('public files at the root', () => {
  it.each([
    ['/favicon.svg', /^image\/svg\+xml/],
    ['/site.webmanifest', /^application\/manifest\+json/],
    ['/apple-touch-icon.png', /^image\/png/],
  ])('%s: revalidated hourly, never compressed on the fly', async (url, type) => {
    const response = await app.inject({ url, headers: { 'accept-encoding': 'br, gzip' } })
    expect(response.statusCode).toBe(200)
    expect(String(response.headers['content-type'])).toMatch(type)
    expect(response.headers['cache-control']).toBe(REVALIDATE)
    expect(response.headers['access-control-allow-origin']).toBeUndefined()
    // No precompressed twin and no second compression by @fastify/compress.
    expect(response.headers['content-encoding']).toBeUndefined()
    const again = await app.inject({
      url,
      headers: { 'accept-encoding': 'br, gzip', 'if-none-match': String(response.headers.etag) },
    })
    expect(again.statusCode).toBe(304)
  })
})
