import { execFile } from 'node:child_process'
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { homedir, tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { promisify } from 'node:util'

/**
 * Mozilla's HTTP Observatory scanner (`@mdn/mdn-http-observatory`), the one behind
 * developer.mozilla.org/observatory, pinned. Not a dependency of the project: its install
 * scripts download Chromium's HSTS preload list and a CA bundle from outside the npm
 * registry, which these machines cannot reach. `.ci/run` installs it into the cache with
 * `npm install --ignore-scripts` (docs/security.md#security-the-policy-enforced-and-reported).
 */
// renovate: datasource=npm depName=@mdn/mdn-http-observatory
export const OBSERVATORY_VERSION = '1.4.8'
export const OBSERVATORY_DIR = join(
  process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'),
  `mdn-http-observatory-${OBSERVATORY_VERSION}`,
)
const PACKAGE_DIR = join(OBSERVATORY_DIR, 'node_modules', '@mdn', 'mdn-http-observatory')
/**
 * Chromium's HSTS preload list, which the scanner's install script would download: empty
 * here (scripts/install-observatory.ts writes it), the test host being on no preload list,
 * which is what that list would say of it.
 */
export const OBSERVATORY_PRELOAD_LIST = join(PACKAGE_DIR, 'conf', 'hsts-preload.json')

/** Whether the pinned scanner is installed where `.ci/run` puts it, preload list and all. */
export function observatoryInstalled(): boolean {
  return existsSync(join(PACKAGE_DIR, 'package.json')) && existsSync(OBSERVATORY_PRELOAD_LIST)
}

export type ObservatoryResult = {
  grade: string
  score: number
  /** Each test's name, outcome and what it adds to or takes from the score. */
  tests: { name: string; result: string; scoreModifier: number; pass: boolean }[]
}

/**
 * Scans `https://<hostname>` (and `http://<hostname>`, for the redirect) as the Observatory
 * does, on ports 443 and 80, which its scanner cannot be told otherwise, trusting the given
 * certificate (PEM). In a process of its own: Node reads extra CA certificates at start.
 */
export async function observatoryScan(
  hostname: string,
  certificate: string,
): Promise<ObservatoryResult> {
  const dir = mkdtempSync(join(tmpdir(), 'modernwerk-observatory-'))
  const ca = join(dir, 'ca.pem')
  writeFileSync(ca, certificate)
  const program = `
    const { scan } = await import(${JSON.stringify(pathToFileURL(join(PACKAGE_DIR, 'src', 'index.js')).href)})
    const { scan: summary, tests } = await scan(${JSON.stringify(hostname)})
    console.log(JSON.stringify({
      grade: summary.grade,
      score: summary.score,
      tests: Object.entries(tests).map(([name, { result, scoreModifier, pass }]) => ({ name, result, scoreModifier, pass })),
    }))`
  try {
    const { stdout } = await promisify(execFile)(
      process.execPath,
      ['--input-type=module', '-e', program],
      { env: { PATH: process.env.PATH, NODE_EXTRA_CA_CERTS: ca }, encoding: 'utf8' },
    )
    return JSON.parse(stdout) as ObservatoryResult
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}
