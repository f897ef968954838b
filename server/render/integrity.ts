import { createHash } from 'node:crypto'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'

/** The build's integrity table, in `dist/` beside `client/` (scripts/write-integrity.ts). */
export const INTEGRITY_FILE = 'integrity.json'

/** The build's scripts with their `sha384-…`, and its stylesheets, by path in `dist/client/`. */
export type IntegrityTable = {
  scripts: Record<string, string>
  stylesheets: string[]
}

/**
 * Subresource Integrity for scripts served by a CDN
 * (docs/security.md#security-the-policy-enforced-and-reported;
 * docs/decisions/subresource-integrity.md). The server writes the entry's `integrity`; every
 * other script (the chunks the entry preloads, the ones React Router and Vite load later) is
 * checked through the import map that opens each page's `<head>`: its `integrity` section names
 * the hash of every script of the build, which browsers apply to `import()`, static imports and
 * `modulepreload` links without their own attribute. Its `imports` send each stylesheet's CDN
 * address to the site's own: Vite's loader resolves a page's stylesheets against the script that
 * needs them, and the site serves its stylesheets itself (no integrity needed).
 */
export type ScriptIntegrity = {
  /** The `integrity` of an asset's URL as pages link it, if it is a checked script. */
  of(url: string): string | undefined
  /** The `<script type="importmap">` element every page's head starts with. */
  importMapElement: string
  /** The CSP source that lets the import map (an inline script) through: `'sha256-…'`. */
  importMapSource: string
}

/**
 * Reads the build's table once at start and makes the import map for scripts at `scriptBase`
 * (the CDN's origin with a slash): one map, the same on every page, so pages stay cacheable
 * and the CSP names one hash.
 */
export async function loadScriptIntegrity(
  distDir: string,
  scriptBase: string,
): Promise<ScriptIntegrity> {
  const path = join(distDir, INTEGRITY_FILE)
  const table = JSON.parse(
    await readFile(path, 'utf8').catch((error: unknown) => {
      throw new Error(`No ${path}: run \`npm run build\` first`, { cause: error })
    }),
  ) as IntegrityTable
  const byUrl = new Map(
    Object.entries(table.scripts).map(([file, hash]) => [scriptBase + file, hash]),
  )
  const importMap = {
    imports: Object.fromEntries(table.stylesheets.map((file) => [scriptBase + file, `/${file}`])),
    integrity: Object.fromEntries(byUrl),
  }
  // `<` never occurs in file names or base64; escaped anyway, as in every JSON block.
  const json = JSON.stringify(importMap).replace(/</g, '\\u003c')
  const hash = createHash('sha256').update(json).digest('base64')
  return {
    of: (url) => byUrl.get(url),
    importMapElement: `<script type="importmap">${json}</script>`,
    importMapSource: `'sha256-${hash}'`,
  }
}
