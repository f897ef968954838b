// Installs the pinned scanner of Mozilla's HTTP Observatory into the cache, for
// tests/server/observatory.test.ts (run by .ci/run; by hand: node scripts/install-observatory.ts).
// Without its install scripts: they download Chromium's HSTS preload list and a CA bundle
// from outside the npm registry, which these machines cannot reach (tests/helpers/observatory.ts).
import { execFileSync } from 'node:child_process'
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import {
  OBSERVATORY_DIR,
  OBSERVATORY_PRELOAD_LIST,
  OBSERVATORY_VERSION,
  observatoryInstalled,
} from '#tests/helpers/observatory.ts'

if (observatoryInstalled()) {
  console.log(`Observatory scanner ${OBSERVATORY_VERSION}: in ${OBSERVATORY_DIR}`)
} else {
  execFileSync(
    'npm',
    [
      'install',
      '--prefix',
      OBSERVATORY_DIR,
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--loglevel=error',
      `@mdn/mdn-http-observatory@${OBSERVATORY_VERSION}`,
    ],
    { stdio: 'inherit' },
  )
  mkdirSync(dirname(OBSERVATORY_PRELOAD_LIST), { recursive: true })
  writeFileSync(OBSERVATORY_PRELOAD_LIST, '{}\n')
  console.log(`Observatory scanner ${OBSERVATORY_VERSION}: installed in ${OBSERVATORY_DIR}`)
}
