import { availableParallelism } from 'node:os'
import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    // Warns when dist/ is older than the sources it is built from (tests/helpers/stale-build.ts).
    globalSetup: ['tests/helpers/stale-build.ts'],
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    // Several app processes behind nginx, and the Gecko and WebKit engines: their own runs
    // (vitest.replicas.config.ts, vitest.engines.config.ts).
    exclude: ['tests/replicas/**', 'tests/engines/**', 'node_modules/**'],
    environment: 'node',
    // Two files at a time on CI's two cores (vitest's default is one fewer than the cores: one
    // here). Most files wait on processes (helm, promtool, SpamAssassin, Redis, podman) more than
    // they compute: 4.9 min instead of 7.5 for the whole run (2026-11-29). The timeouts below
    // are set for a busy machine.
    maxWorkers: Math.max(2, availableParallelism() - 1),
    testTimeout: 20_000,
    // Set-up builds the app from dist/ and, in some files, renders every page first (about
    // 3 s while the machine is busy): vitest's 10 s default is too close when other jobs share
    // CI's two cores. A hook that finishes early costs nothing more.
    hookTimeout: 60_000,
  },
})
