import { fileURLToPath } from 'node:url'
import react from '@vitejs/plugin-react'
import { defineConfig, type Alias } from 'vite'
import { bundleReport } from './scripts/lib/bundle-report.ts'
import { staticImports } from './scripts/lib/static-imports.ts'
import { SCREENS, screenSource } from './shared/pages.ts'
import { WORKER_FILE_PREFIX } from './shared/subresources.ts'

/**
 * react-router resolves to its development build (warnings and invariants included) under
 * every bundler condition; the browser bundle of a production build takes the production one.
 * Version 8 picks it by itself, but it has no `react-router-dom`
 * (docs/decisions/react-router-dom-7-until-its-fixes-end.md).
 */
const routerProductionBuild: Alias[] = [
  { find: /^react-router$/, replacement: routerFile('index.mjs') },
  { find: /^react-router\/dom$/, replacement: routerFile('dom-export.mjs') },
]

function routerFile(name: string) {
  // Resolves to dist/development/index.mjs; its sibling folder holds the production build.
  return fileURLToPath(new URL(`../production/${name}`, import.meta.resolve('react-router')))
}

/** The framework packages: React, its router and i18next. */
const FRAMEWORK =
  /node_modules[\\/](react|react-dom|scheduler|react-router|react-router-dom|i18next)[\\/]/
const ROOT = fileURLToPath(new URL('.', import.meta.url))
/** The chunks every page has loaded before any other chunk of the app runs… */
const ALWAYS_LOADED = /(^|\/)(entry-client|framework|rolldown-runtime)-[\w-]+\.js$/
/** …of which the entry loads the others. */
const ENTRY_CHUNK = /(^|\/)entry-client-[\w-]+\.js$/
/**
 * What every page needs of our own code: what hydration imports (not the hydrate module
 * itself, the chunk the entry loads) and what most page modules import, minus what the entry
 * imports: the entry must load nothing before the first paint. Computed from the sources
 * (docs/decisions/framework-chunk-computed-from-the-sources.md).
 */
const ENTRY_IMPORTS = staticImports(ROOT, 'client/entry-client.tsx')
const PAGE_IMPORTS = SCREENS.flatMap((screen) => [...staticImports(ROOT, screenSource(screen))])
const isUsedByMostPages = (file: string) =>
  PAGE_IMPORTS.filter((imported) => imported === file).length * 2 >= SCREENS.length
const APP_SHELL = new Set(
  [...staticImports(ROOT, 'client/hydrate.tsx'), ...PAGE_IMPORTS.filter(isUsedByMostPages)].filter(
    (file) => !ENTRY_IMPORTS.has(file) && !/(hydrate|-page)\.tsx$/.test(file),
  ),
)

/**
 * Lightning CSS version numbers: major << 16 | minor << 8. The browsers of `build.target:
 * 'es2022'` as Vite passes them to its CSS minifier, so the transform and the minifier agree.
 */
const browser = (major: number, minor = 0) => (major << 16) | (minor << 8)
const cssTargets = {
  chrome: browser(94),
  edge: browser(94),
  firefox: browser(93),
  opera: browser(80),
  safari: browser(16, 4),
  ios_saf: browser(16, 4),
}

// Client bundle: hashed, code-split assets and a manifest the server reads to link entry,
// page chunks and stylesheets. `vite build --ssr client/entry-server.tsx` reuses this config
// for the server entry (dependencies stay external and load from node_modules).
export default defineConfig(({ command, isSsrBuild }) => ({
  // The client build reports what each package and module costs per chunk (docs/performance.md).
  plugins: [react(), ...(isSsrBuild ? [] : [bundleReport(ROOT)])],
  resolve: { alias: command === 'build' && !isSsrBuild ? routerProductionBuild : [] },
  publicDir: 'public',
  // Stylesheets go through Lightning CSS, in the build and in development alike: it bundles
  // the @imports of client/styles/global.css into their cascade layers and replaces the
  // breakpoints' @custom-media (a draft spec, declared in tokens.css) by their media queries.
  css: {
    transformer: 'lightningcss',
    lightningcss: { drafts: { customMedia: true }, targets: cssTargets },
  },
  // Development: pre-bundle every dependency the client reaches from its entry (pages
  // included) at start, so no late discovery reloads an open page.
  optimizeDeps: { entries: ['client/entry-client.tsx'] },
  // The proof of work's worker (client/components/proof-of-work.ts) is a module worker, in the
  // build as in development, where Vite serves workers as modules. Its files are named apart:
  // a worker runs under the policy its own response carries, so the server sends them every
  // security header (shared/subresources.ts).
  worker: {
    format: 'es',
    rolldownOptions: {
      output: {
        entryFileNames: `assets/${WORKER_FILE_PREFIX}[name]-[hash].js`,
        chunkFileNames: `assets/${WORKER_FILE_PREFIX}[name]-[hash].js`,
      },
    },
  },
  build: isSsrBuild
    ? {
        outDir: 'dist/server',
        emptyOutDir: true,
        copyPublicDir: false,
        target: 'node24',
        assetsInlineLimit: 0,
      }
    : {
        outDir: 'dist/client',
        emptyOutDir: true,
        manifest: true,
        assetsDir: 'assets',
        // Images and fonts stay files: cacheable, and no data: URLs in scripts.
        assetsInlineLimit: 0,
        target: 'es2022',
        modulePreload: {
          // A chunk's dynamic imports need not preload what every page has before any chunk
          // runs: the entry and what hydration imports (the framework and Rolldown's runtime).
          // The entry's own import of hydration keeps them: they load side by side
          // (docs/decisions/preload-lists.md).
          resolveDependencies: (_url, deps, { hostId }) =>
            ENTRY_CHUNK.test(hostId) ? deps : deps.filter((dep) => !ALWAYS_LOADED.test(dep)),
        },
        rolldownOptions: {
          input: 'client/entry-client.tsx',
          output: {
            codeSplitting: {
              groups: [
                // What every page needs, in one file rather than a dozen of a few hundred
                // bytes that each pay a request and a gzip header: the framework packages
                // and the app shell (what hydration imports and the entry does not). zod,
                // ofetch and the contact schema stay out: they load with the form.
                {
                  name: 'framework',
                  test: (id) => FRAMEWORK.test(id) || APP_SHELL.has(id),
                  includeDependenciesRecursively: false,
                },
              ],
            },
          },
        },
      },
}))
