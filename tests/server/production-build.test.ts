import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOCALE_UPDATE_EVENT } from '#shared/texts.ts'
import { WORKER_FILE_PREFIX } from '#shared/subresources.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'

/** Nothing of `npm run dev` may reach production: no Vite client, no HMR, no loosened CSP. */
const DIST = join(import.meta.dirname, '..', '..', 'dist')

let app: FastifyInstance

beforeAll(async () => {
  app = await buildTestApp({ NODE_ENV: 'production' })
})

afterAll(async () => {
  await app.close()
})

describe('production output', () => {
  it('pages carry no development scripts and the strict policy', async () => {
    for (const url of ['/', '/de', '/pl/nie-ma-takiej-strony']) {
      const response = await app.inject({ method: 'GET', url })
      expect(response.body).not.toMatch(/@vite|@react-refresh|client\/entry-client\.tsx/)
      expect(response.body).not.toContain('"devError"')
      const csp = String(response.headers['content-security-policy'])
      expect(csp).not.toMatch(/unsafe-inline|unsafe-eval|ws:|blob:/)
      expect(csp).toContain("style-src 'self'")
    }
  })

  it('serves no Vite endpoints and accepts no HMR socket', async () => {
    for (const url of ['/@vite/client', '/@react-refresh', '/client/entry-client.tsx']) {
      const response = await app.inject({ method: 'GET', url })
      expect(response.statusCode, url).toBe(404)
      expect(response.body).not.toContain('import ')
    }
    const upgrade = await app.inject({
      method: 'GET',
      url: '/',
      headers: {
        connection: 'Upgrade',
        upgrade: 'websocket',
        'sec-websocket-protocol': 'vite-hmr',
      },
    })
    expect(upgrade.statusCode).not.toBe(101)
  })

  it('ships client bundles without HMR code or development error details', () => {
    const assets = join(DIST, 'client', 'assets')
    const scripts = readdirSync(assets).filter((file) => file.endsWith('.js'))
    expect(scripts.length).toBeGreaterThan(0)
    for (const file of scripts) {
      const code = readFileSync(join(assets, file), 'utf8')
      for (const marker of [
        LOCALE_UPDATE_EVENT,
        'import.meta.hot',
        '$RefreshReg$',
        'error-details',
      ]) {
        expect(code.includes(marker), `${file} contains ${marker}`).toBe(false)
      }
    }
  })

  it('reports what each package and module costs in each chunk it ships, and nothing else', async () => {
    const report = JSON.parse(
      readFileSync(join(DIST, 'client', '.vite', 'bundle-report.json'), 'utf8'),
    ) as {
      chunks: {
        file: string
        name: string
        bytes: number
        brotli: number
        parts: { owner: string; rendered: number; brotli: number }[]
      }[]
    }
    const assets = join(DIST, 'client', 'assets')
    // The proof of work's worker is bundled on its own, as workers are, and loads with the form.
    const scripts = readdirSync(assets).filter(
      (file) => file.endsWith('.js') && !file.startsWith(WORKER_FILE_PREFIX),
    )
    // Every page script the build ships has its row, at the size it has on disk.
    expect(report.chunks.map((chunk) => chunk.file).sort()).toEqual(
      scripts.map((file) => `assets/${file}`).sort(),
    )
    for (const chunk of report.chunks) {
      expect(chunk.bytes, chunk.file).toBe(readFileSync(join(DIST, 'client', chunk.file)).length)
      const estimated = chunk.parts.reduce((total, part) => total + part.brotli, 0)
      expect(Math.abs(estimated - chunk.brotli), chunk.file).toBeLessThanOrEqual(chunk.parts.length)
    }
    const framework = report.chunks.find((chunk) => chunk.name === 'framework')
    const owners = framework?.parts.map((part) => part.owner) ?? []
    expect(owners.slice(0, 2)).toEqual(['react-dom', 'react-router'])
    expect(owners).toContain('client/routes.tsx')
    // Not served: the static files skip dotfiles.
    const served = await app.inject({ url: '/.vite/bundle-report.md' })
    expect(served.statusCode).toBe(404)
  })
})
