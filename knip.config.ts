import type { KnipConfig } from 'knip'

// `npm run knip` (in `npm run check`): files, exports, dependencies and binaries nothing uses.
// The plugins for Vite, Vitest, Playwright, ESLint and Prettier read their configs by
// themselves; what they cannot see is declared here, each with the reason it stays.
const config: KnipConfig = {
  entry: [
    // Processes started by path, not imported: the bench's baseline server (scripts/bench.ts),
    // the image check's contact post and fault drill (tests/deploy/check-image.sh), the SMTP sink inside its
    // test container (tests/containers/smtp-sink/Containerfile), the Observatory's installer
    // (.ci/run), the operators' commands (package.json's scripts name them).
    'scripts/bench/baseline-server.ts',
    'tests/deploy/contact-post.ts',
    'tests/deploy/drill.ts',
    'tests/containers/smtp-sink/sink.mjs',
    'scripts/install-observatory.ts',
    'server/cli/*.ts',
    // Read by i18next-cli, which scripts/i18n-keys.ts runs.
    'i18next.config.ts',
  ],
  vitest: { config: ['vitest.config.ts', 'vitest.replicas.config.ts', 'vitest.engines.config.ts'] },
  ignoreDependencies: [
    // Used by path (require.resolve, import.meta.resolve, a string), which knip does not follow:
    // the font files subset and drawn into share pictures (scripts/lib/font-subset.ts,
    // share-card.ts), the validator's jar (tests/server/routes/pages-w3c.test.ts), pino's
    // development transport (server/app.ts).
    '@fontsource-variable/inter',
    'vnu-jar',
    'pino-pretty',
    // Not listed on purpose: each must be the copy its parent installs. The page-replay test
    // compares our headers with the defaults of the helmet @fastify/helmet wraps; the Vite
    // config points at the production build of the react-router that react-router-dom uses
    // (code imports only react-router-dom: one router specifier, ESLint).
    'helmet',
    'react-router',
  ],
  // System tools, installed by .ci/run from Debian (tests say so and skip when one is missing);
  // mount and umount for the full-disk tests' tmpfs (tests/helpers/full-disk.ts); podman for the
  // fault drill (tests/deploy/drill.ts, run by tests/deploy/check-image.sh after engine.sh).
  ignoreBinaries: [
    'taskset',
    'promtool',
    'prometheus',
    'spamassassin',
    'openssl',
    'mount',
    'umount',
    'podman',
  ],
}

export default config
