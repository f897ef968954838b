import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['tests/**/*.test.ts', 'tests/**/*.test.tsx'],
    // Several app processes behind nginx: their own run (vitest.replicas.config.ts).
    exclude: ['tests/replicas/**', 'node_modules/**'],
    environment: 'node',
    testTimeout: 20_000,
  },
})
