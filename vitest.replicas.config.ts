import { defineConfig } from 'vitest/config'

// `npm run test:replicas`: app processes of the production build behind nginx with one Redis
// (tests/replicas). One file at a time: each starts its own cluster of processes.
export default defineConfig({
  test: {
    // Warns when dist/ is older than the sources it is built from (tests/helpers/stale-build.ts).
    globalSetup: ['tests/helpers/stale-build.ts'],
    include: ['tests/replicas/**/*.test.ts'],
    environment: 'node',
    fileParallelism: false,
    testTimeout: 180_000,
    // Set-up starts Redis, three app processes one after the other and nginx: on a machine
    // shared with other jobs each start can take many seconds.
    hookTimeout: 180_000,
  },
})
