import { cpSync, mkdtempSync, symlinkSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

const ROOT = join(import.meta.dirname, '..', '..')

/**
 * What a build, `npm run dev` or `npm run i18n:keys` needs of the repository; node_modules is
 * linked, not copied.
 */
const SOURCES = [
  'client',
  'server',
  'shared',
  'locales',
  'public',
  'scripts',
  'package.json',
  'tsconfig.json',
  'vite.config.ts',
  'i18next.config.ts',
]

/**
 * A copy of the sources in a new temporary folder, to edit and build or serve without touching
 * the repository (a second build, a dev server whose files a test changes, broken texts).
 */
export function copySources(prefix: string): string {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  for (const entry of SOURCES) cpSync(join(ROOT, entry), join(dir, entry), { recursive: true })
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir')
  return dir
}
