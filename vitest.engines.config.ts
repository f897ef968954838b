import { defineConfig } from 'vitest/config'

// `npm run test:engines`: the site in Gecko and WebKit (tests/engines), one engine after the
// other: each browser takes one of CI's two cores, the app and the proxy the other.
export default defineConfig({
  test: {
    // Warns when dist/ is older than the sources it is built from (tests/helpers/stale-build.ts).
    globalSetup: ['tests/helpers/stale-build.ts'],
    include: ['tests/engines/**/*.test.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 60_000,
    // Once more, in a new browser, only when a browser stopped answering its driver
    // (tests/engines/drivers.ts, EngineUnresponsive); any other failure fails at once.
    retry: { count: 1, condition: /did not answer/ },
    // A browser's first start on a busy machine: Firefox took 14 s here once.
    hookTimeout: 120_000,
  },
})
