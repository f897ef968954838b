import { defineConfig, devices } from '@playwright/test'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from './tests/helpers/chromium.ts'

const PORT = Number(process.env.E2E_PORT ?? 18300)
const BASE_URL = `http://127.0.0.1:${PORT}`
/** Port of the instance with a broken outbox (tests/e2e/contact-form.spec.ts). */
const FAILING_PORT = Number(process.env.E2E_FAILING_PORT ?? 18302)

export default defineConfig({
  testDir: './tests/e2e',
  // Warns when dist/ is older than the sources it is built from (tests/helpers/stale-build.ts).
  globalSetup: './tests/helpers/stale-build.ts',
  // A test may visit several pages (the CSP and theme checks walk seven): 30 s was enough on
  // an idle machine and too little when CI's two cores are shared with other jobs. A test that
  // passes returns as soon as it is done; only a hung one waits this long to fail.
  timeout: 90_000,
  // Web-first assertions and `expect.poll` wait up to 15 s instead of 5 s: they return as soon
  // as the condition holds, so this costs nothing on an idle machine, and on a busy one (CI's
  // two cores shared with other jobs) a slow hydration does not fail a test.
  expect: { timeout: 15_000 },
  fullyParallel: false,
  // One worker in CI: with two, the rollout tests (deploy.spec.ts) failed under the load of two
  // browsers and the server on two cores, and the run took as long (docs/testing.md).
  workers: process.env.CI ? 1 : 2,
  forbidOnly: !!process.env.CI,
  // A failed test runs once more, recording a trace; it fails the run either way, since a test
  // that passes only on its second run counts as a failure too. Recording a trace for every
  // test (its DOM at each action, a screencast) took as long as the tests themselves:
  // docs/decisions/traces-on-retry.md.
  retries: 1,
  failOnFlakyTests: true,
  reporter: 'list',
  use: {
    baseURL: BASE_URL,
    screenshot: 'only-on-failure',
    trace: 'on-first-retry',
  },
  projects: [
    {
      name: 'chromium',
      use: {
        ...devices['Desktop Chrome'],
        launchOptions: {
          executablePath: CHROMIUM_PATH,
          args: CHROMIUM_ARGS,
        },
      },
    },
  ],
  webServer: [
    {
      // The production server on the build `npm test` made; APP_BASE_URL matches the origin.
      command: 'node server/main.ts',
      env: {
        NODE_ENV: 'production',
        PORT: String(PORT),
        // /metrics on the site's port, where the specs read it (tests/e2e/insight.spec.ts); a
        // port of its own (9464 by default) could be taken by another process on the machine.
        METRICS_PORT: String(PORT),
        HOST: '127.0.0.1',
        APP_BASE_URL: BASE_URL,
        LOG_LEVEL: 'warn',
        OUTBOX_DIR: 'test-results/e2e-outbox',
        CONTACT_RATE_MAX: '1000',
        // No overload guard: the browsers share the machine's two cores with this server, and
        // a test is about what a page does, not about a busy machine
        // (tests/server/plugins/overload.test.ts is).
        MAX_EVENT_LOOP_DELAY_MS: '0',
      },
      url: `${BASE_URL}/healthz`,
      reuseExistingServer: false,
      timeout: 20_000,
      stdout: 'ignore',
      stderr: 'pipe',
    },
    {
      // A second instance whose outbox cannot be written and whose limit is tiny: the form's
      // error and rate-limited states against the real server.
      command: 'node server/main.ts',
      env: {
        NODE_ENV: 'production',
        PORT: String(FAILING_PORT),
        METRICS_PORT: String(FAILING_PORT),
        HOST: '127.0.0.1',
        APP_BASE_URL: `http://127.0.0.1:${FAILING_PORT}`,
        LOG_LEVEL: 'fatal',
        OUTBOX_DIR: '/dev/null/outbox',
        CONTACT_RATE_MAX: '2',
        MAX_EVENT_LOOP_DELAY_MS: '0',
      },
      url: `http://127.0.0.1:${FAILING_PORT}/healthz`,
      reuseExistingServer: false,
      timeout: 20_000,
      stdout: 'ignore',
      stderr: 'ignore',
    },
  ],
})
