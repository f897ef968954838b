import { inflateSync } from 'node:zlib'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { ICONS, TOUCH_ICON } from '#shared/icons.ts'
import { LOCALES, localizePath } from '#shared/locales.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'

let app: FastifyInstance

beforeAll(async () => {
  app = await buildTestApp()
})

afterAll(async () => {
  await app.close()
})

/** A PNG's size from its header, and how many different byte values its pixel data holds. */
function readPng(body: Buffer) {
  expect(body.subarray(0, 8).toString('hex')).toBe('89504e470d0a1a0a')
  const chunks: Buffer[] = []
  let width = 0
  let height = 0
  for (let offset = 8; offset < body.length;) {
    const length = body.readUInt32BE(offset)
    const type = body.toString('latin1', offset + 4, offset + 8)
    const data = body.subarray(offset + 8, offset + 8 + length)
    if (type === 'IHDR') [width, height] = [data.readUInt32BE(0), data.readUInt32BE(4)]
    if (type === 'IDAT') chunks.push(data)
    offset += 12 + length
  }
  const pixels = inflateSync(Buffer.concat(chunks))
  return { width, height, distinctBytes: new Set(pixels).size }
}

describe('icons made from the brand mark at build time', () => {
  it.each(ICONS)('$file answers as a $size px PNG that is not blank', async ({ file, size }) => {
    const response = await app.inject(`/${file}`)
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('image/png')
    const png = readPng(response.rawPayload)
    expect([png.width, png.height]).toEqual([size, size])
    // A mark on a background: many values (edges are anti-aliased), not one flat color.
    expect(png.distinctBytes).toBeGreaterThan(16)
  })

  it('the web manifest lists the icons, each answering with its declared size', async () => {
    const response = await app.inject('/site.webmanifest')
    expect(response.headers['content-type']).toContain('application/manifest+json')
    const manifest = response.json<{
      icons: { src: string; type: string; sizes: string; purpose?: string }[]
    }>()
    const pngs = manifest.icons.filter((icon) => icon.type === 'image/png')
    expect(pngs.map((icon) => icon.src).sort()).toEqual(
      ICONS.filter((icon) => icon.inManifest)
        .map((icon) => `/${icon.file}`)
        .sort(),
    )
    expect(pngs.filter((icon) => icon.purpose === 'maskable')).toHaveLength(1)
    for (const icon of pngs) {
      const png = readPng((await app.inject(icon.src)).rawPayload)
      expect(`${png.width}x${png.height}`).toBe(icon.sizes)
    }
  })

  it.each(LOCALES)('every page in %s links the touch icon once', async (locale) => {
    for (const path of ['/', '/contact', '/no-such-page']) {
      const body = (await app.inject(localizePath(locale, path))).body
      expect(body.match(/<link rel="apple-touch-icon"[^>]*>/g)).toEqual([
        `<link rel="apple-touch-icon" href="${TOUCH_ICON}"/>`,
      ])
    }
  })
})
