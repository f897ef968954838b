import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    // Several app processes behind nginx: their own run (vitest.replicas.config.ts).
    exclude: ['tests/replicas/**', 'node_modules/**'],
    environment: 'node',
    testTimeout: 20_000,
    // Set-up builds the app from dist/ and, in some files, renders all 48 pages first (about
    // 3 s while the machine is busy): vitest's 10 s default is too close when other jobs share
    // CI's two cores. A hook that finishes early costs nothing more.
    hookTimeout: 60_000,
  },
})
