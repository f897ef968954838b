import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { changedSince, staleBuildWarning } from '#tests/helpers/stale-build.ts'

// The warning before the tests when dist/ is older than its sources, on a tree of its own.
const root = mkdtempSync(join(tmpdir(), 'stale-build-'))
afterAll(() => rmSync(root, { recursive: true, force: true }))

function write(path: string, text: string, time: number) {
  mkdirSync(join(root, path, '..'), { recursive: true })
  writeFileSync(join(root, path), text)
  utimesSync(join(root, path), time / 1000, time / 1000)
}

describe('the stale build warning', () => {
  const built = Date.UTC(2026, 10, 28, 12)

  it('says nothing while dist/ is newer than every source', () => {
    write('client/root.tsx', 'export {}', built - 60_000)
    write('locales/de/home.json', '{}', built - 60_000)
    write('dist/build-info.json', JSON.stringify({ id: 'abc', timestamp: built }), built)
    expect(changedSince(built, root)).toEqual([])
    expect(staleBuildWarning(root)).toBeUndefined()
  })

  it('names the sources changed since the build', () => {
    write('locales/de/home.json', '{"hero":{}}', built + 60_000)
    write('shared/pages.ts', 'export {}', built + 120_000)
    expect(changedSince(built, root)).toEqual(['shared/pages.ts', 'locales/de/home.json'])
    expect(staleBuildWarning(root)).toMatch(
      /^dist\/ is older than shared\/pages\.ts, locales\/de\/home\.json: .*npm run build/,
    )
  })

  it('leaves a missing build to the tests that need one', () => {
    rmSync(join(root, 'dist'), { recursive: true })
    expect(staleBuildWarning(root)).toBeUndefined()
  })
})
