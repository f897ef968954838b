import { readdirSync, readFileSync, realpathSync } from 'node:fs'
import { join, relative, sep } from 'node:path'
import middie from '@fastify/middie'
import type { FastifyInstance } from 'fastify'
import fp from 'fastify-plugin'
import type { Plugin, ViteDevServer } from 'vite'
import type * as EntryServer from '#client/entry-server.tsx'
import { LOCALE_UPDATE_EVENT, type LocaleUpdate } from '#shared/texts.ts'
import { FILE_NAMESPACES } from '#shared/namespaces.ts'
import { isLocale } from '#shared/locales.ts'
import { addDerivedNamespaces, pseudoLocalizeEnglish } from './i18n.ts'
import type { Renderer } from './renderer.ts'

export type DevServerOptions = { root: string }

const SERVER_ENTRY = '/client/entry-server.tsx'
const CLIENT_ENTRY = '/client/entry-client.tsx'
const STYLESHEET = '/client/styles/global.css'

/**
 * The page stylesheets (each an `@layer pages` block that its page module imports): in the
 * build the manifest links a page's own; here every one is linked, so the server's first paint
 * is styled before Vite's client injects them.
 */
function pageStylesheets(root: string): string[] {
  const dir = join(root, 'client', 'styles', 'pages')
  return readdirSync(dir)
    .filter((name) => name.endsWith('.css'))
    .filter((name) => readFileSync(join(dir, name), 'utf8').includes('@layer pages'))
    .map((name) => `/client/styles/pages/${name}`)
}

/**
 * Development mode (`npm run dev`): Vite in middleware mode inside this Fastify instance. The
 * routes and the render path are production's; only the server entry is loaded through Vite
 * (fresh after every edit) and the browser gets the client entry from source with HMR.
 */
export const devServerPlugin = fp<DevServerOptions>(
  async (app, { root }) => {
    // Imported here, never in production: Vite is a development dependency.
    const { createServer, searchForWorkspaceRoot } = await import('vite')
    const vite = await createServer({
      root,
      configFile: join(root, 'vite.config.ts'),
      appType: 'custom',
      server: {
        middlewareMode: true,
        hmr: { server: app.server },
        // Files Vite may serve: the project and its dependencies, wherever node_modules
        // really lives (a linked node_modules resolves outside the project).
        fs: { allow: [searchForWorkspaceRoot(root), realpathSync(join(root, 'node_modules'))] },
      },
      plugins: [localeHotUpdate(app, root)],
    })
    // Before the HTTP server closes: Vite's HMR sockets would otherwise keep it open.
    app.addHook('preClose', () => vite.close())
    await app.register(middie)
    app.use(vite.middlewares)
    app.decorate('renderer', devRenderer(vite, pageStylesheets(root)))
  },
  { name: 'dev-server', dependencies: ['i18n'] },
)

function devRenderer(vite: ViteDevServer, styles: readonly string[]): Renderer {
  return {
    async render(options) {
      const entry = (await vite.ssrLoadModule(SERVER_ENTRY)) as typeof EntryServer
      return entry.render({
        ...options,
        onError(error) {
          // Stack traces point at the sources, not at Vite's transformed modules.
          if (error instanceof Error) vite.ssrFixStacktrace(error)
          options.onError(error)
        },
      })
    },
    // The stylesheet is linked as well as imported, so the first paint is styled; Vite's
    // client updates both on edits.
    assets: () => ({
      bootstrap: ['/@vite/client', CLIENT_ENTRY],
      styles: [STYLESHEET, ...styles],
      modules: [],
      fonts: [],
    }),
    build: { id: 'development', timestamp: Date.now() },
  }
}

/**
 * Edited texts: i18next reads the file again through its backend (`reloadResources`), so the
 * next response has it, and the open page gets the new bundle over the HMR socket, without a
 * reload. A syntax error is shown in Vite's overlay and the log, naming file and position; the
 * old texts stay in use.
 */
function localeHotUpdate(app: FastifyInstance, root: string): Plugin {
  return {
    name: 'modernwerk:locale-hot-update',
    hotUpdate({ file, read }) {
      const [folder, locale, name] = relative(root, file).split(sep)
      const ns = FILE_NAMESPACES.find((namespace) => `${namespace}.json` === name)
      if (folder !== 'locales' || !isLocale(locale) || !ns) return
      if (this.environment.name !== 'client') return []
      void Promise.resolve(read()).then(async (text) => {
        try {
          JSON.parse(text)
        } catch (error) {
          const message = `locales/${locale}/${ns}.json: ${(error as Error).message}`
          app.log.error(message)
          this.environment.hot.send({
            type: 'error',
            err: { message, stack: '', id: file, plugin: 'modernwerk:locales' },
          })
          return
        }
        // Dropped first, as a reload merges into the bundle it has: a deleted key must go.
        const before = app.i18n.getResourceBundle(locale, ns) as Record<string, unknown>
        app.i18n.removeResourceBundle(locale, ns)
        await app.i18n.reloadResources([locale], [ns])
        if (!app.i18n.hasResourceBundle(locale, ns)) {
          app.i18n.addResourceBundle(locale, ns, before, false, true)
          app.log.error({ file: `locales/${locale}/${ns}.json` }, 'texts not reloaded')
          return
        }
        if (app.config.PSEUDO_LOCALE && locale === 'en') pseudoLocalizeEnglish(app.i18n, [ns])
        const resources = app.i18n.getResourceBundle(locale, ns) as LocaleUpdate['resources']
        const derived = Object.entries(addDerivedNamespaces(app.i18n, locale))
        for (const [name, bundle] of [[ns, resources] as const, ...derived]) {
          const update: LocaleUpdate = {
            locale,
            ns: name,
            resources: bundle as LocaleUpdate['resources'],
          }
          this.environment.hot.send(LOCALE_UPDATE_EVENT, update)
        }
        app.log.info({ file: `locales/${locale}/${ns}.json` }, 'texts updated')
      })
      return []
    },
  }
}
