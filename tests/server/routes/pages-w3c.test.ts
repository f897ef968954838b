import { execFile } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { promisify } from 'node:util'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOCALIZED_PAGES } from '#shared/pages.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'

// Every page as the built server sends it, and the 404 page, through the W3C Nu HTML checker
// (the `vnu-jar` package; Java from the system, `.ci/run` installs it): zero errors. One run of
// the checker for all files, as starting Java costs more than checking a page.

const VNU_JAR = createRequire(import.meta.url).resolve('vnu-jar/build/dist/vnu.jar')
const NOT_FOUND = '/no-such-page'

type VnuMessage = {
  type: string
  subType?: string
  url?: string
  lastLine?: number
  firstColumn?: number
  message: string
  extract?: string
}

let app: FastifyInstance
let dir: string

beforeAll(async () => {
  app = await buildTestApp()
  dir = mkdtempSync(join(tmpdir(), 'modernwerk-vnu-'))
})

afterAll(async () => {
  await app.close()
  rmSync(dir, { recursive: true, force: true })
})

/** A page's file name: `/de/about` → `_de_about.html` (no path has an underscore). */
const fileName = (path: string) => `${path.replaceAll('/', '_')}.html`

describe('the HTML of every page', () => {
  it('passes the Nu HTML checker without errors', { timeout: 120_000 }, async () => {
    const paths = [...LOCALIZED_PAGES.map(({ path }) => path), NOT_FOUND]
    for (const path of paths) {
      const response = await app.inject({ method: 'GET', url: path })
      expect(response.statusCode, path).toBe(path === NOT_FOUND ? 404 : 200)
      writeFileSync(join(dir, fileName(path)), response.body)
    }

    const files = paths.map((path) => join(dir, fileName(path)))
    const args = ['-jar', VNU_JAR, '--errors-only', '--format', 'json', ...files]
    // The checker exits 1 when it reports an error; its JSON report is on stderr either way.
    const { stderr } = await promisify(execFile)('java', args, { maxBuffer: 64 << 20 }).catch(
      (error: unknown) => {
        const { code, stderr } = error as { code?: string | number; stderr?: string }
        if (code === 'ENOENT') throw new Error('The checker needs Java (default-jre-headless)')
        if (code !== 1 || !stderr) throw error
        return { stderr }
      },
    )
    const { messages } = JSON.parse(stderr) as { messages: VnuMessage[] }
    const pageOf = new Map(paths.map((path) => [fileName(path), path]))
    const errors = messages
      .filter((message) => message.type !== 'info')
      .map((message) => {
        const file = message.url?.split('/').pop() ?? ''
        const where = `${pageOf.get(file) ?? message.url ?? '?'}:${message.lastLine ?? 0}`
        return `${where}: ${message.message} [${message.extract ?? ''}]`
      })
    expect(errors).toEqual([])
  })
})
