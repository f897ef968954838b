import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'

// Tests that load the build (the app's renderer, the browsers) test dist/, not the sources: a
// change made since the last `npm run build` is not in what they see. Vitest's and
// Playwright's global set-up call `warnOfStaleBuild`, which says so before the first test.

const ROOT = join(import.meta.dirname, '..', '..')
/** What `npm run build` turns into dist/. */
const BUILD_INPUTS = ['client', 'shared', 'locales', 'public', 'vite.config.ts']

/** The build inputs under `root` changed after `builtAt` (ms), newest first. */
export function changedSince(builtAt: number, root = ROOT): string[] {
  const changed: { path: string; time: number }[] = []
  for (const input of BUILD_INPUTS) {
    const path = join(root, input)
    if (!existsSync(path)) continue
    const files = statSync(path).isDirectory()
      ? readdirSync(path, { recursive: true, encoding: 'utf8' }).map((file) => join(path, file))
      : [path]
    for (const file of files) {
      const stat = statSync(file)
      if (stat.isFile() && stat.mtimeMs > builtAt) {
        changed.push({ path: relative(root, file), time: stat.mtimeMs })
      }
    }
  }
  return changed.sort((a, b) => b.time - a.time).map(({ path }) => path)
}

/** When dist/ was built (its build-info.json), or undefined without a build. */
function builtAt(root: string): number | undefined {
  try {
    const info = JSON.parse(readFileSync(join(root, 'dist', 'build-info.json'), 'utf8')) as {
      timestamp?: unknown
    }
    return typeof info.timestamp === 'number' ? info.timestamp : undefined
  } catch {
    return undefined
  }
}

/** The warning for a build older than its sources, or undefined when it is current. */
export function staleBuildWarning(root = ROOT): string | undefined {
  const time = builtAt(root)
  if (time === undefined) return undefined // the tests that need a build say so themselves
  const changed = changedSince(time, root)
  if (changed.length === 0) return undefined
  const shown = changed.slice(0, 5).join(', ')
  const more = changed.length > 5 ? ` and ${changed.length - 5} more` : ''
  return `dist/ is older than ${shown}${more}: tests that load the build test the old one. Run \`npm run build\` (npm test does).`
}

export function warnOfStaleBuild(): void {
  const warning = staleBuildWarning()
  if (warning) console.warn(`\n⚠ ${warning}\n`)
}

export default warnOfStaleBuild
