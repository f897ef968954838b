import { mkdtempSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { buildApp, type AppOverrides } from '#server/app.ts'
import { loadConfig } from '#server/config.ts'
import { TEST_TOKEN_SECRET } from './form-token.ts'

const errorLines = new WeakMap<object, string[]>()

/**
 * What the app logged at level error or above (a test app's only log lines): a failing test
 * can show the server's side in its message, `expect(status, serverErrors(app)).toBe(…)`.
 */
export function serverErrors(app: object): string {
  return (errorLines.get(app) ?? []).join('\n')
}

/**
 * The real application with test settings: only errors logged, kept for `serverErrors`, and
 * the production build in `dist/` (`npm test` builds first). Close it after the suite.
 *
 * The overload guard is off unless a test sets `MAX_EVENT_LOOP_DELAY_MS`: a test's own
 * synchronous work (parsing pages, loops over the tables) runs on the app's event loop and,
 * on a machine shared with other workers and browsers, can hold it for over a second.
 *
 * `/metrics` is served on the site's port (`METRICS_PORT` equal to `PORT`) unless a test sets
 * `METRICS_PORT`: `inject` never listens, so a port of its own would leave it unreachable.
 */
export async function buildTestApp(env: Record<string, string> = {}, overrides: AppOverrides = {}) {
  const port = env.PORT ?? '3000'
  const config = loadConfig({
    NODE_ENV: 'test',
    PORT: port,
    METRICS_PORT: port,
    // Each app its own outbox, never the project's data folder.
    OUTBOX_DIR: mkdtempSync(join(tmpdir(), 'modernwerk-outbox-')),
    MAX_EVENT_LOOP_DELAY_MS: '0',
    // The key tests sign a person's form tokens with (tests/helpers/form-token.ts).
    CONTACT_TOKEN_SECRET: TEST_TOKEN_SECRET,
    ...env,
  })
  const lines: string[] = []
  const logger = { level: 'error', stream: { write: (line: string) => void lines.push(line) } }
  const app = await buildApp(config, { logger, ...overrides })
  errorLines.set(app, lines)
  await app.ready()
  return app
}
