import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp, type AppOverrides } from '#server/app.ts'
import { loadConfig } from '#server/config.ts'

/**
 * The real application with test settings: silent logs and the production build in `dist/`
 * (`npm test` builds first). Close it after the suite.
 */
export async function buildTestApp(env: Record<string, string> = {}, overrides: AppOverrides = {}) {
  const config = loadConfig({
    NODE_ENV: 'test',
    LOG_LEVEL: 'silent',
    // Each app its own outbox, never the project's data folder.
    OUTBOX_DIR: mkdtempSync(join(tmpdir(), 'modernwerk-outbox-')),
    ...env,
  })
  const app = await buildApp(config, { logger: false, ...overrides })
  await app.ready()
  return app
}
