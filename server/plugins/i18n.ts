import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fp from 'fastify-plugin'
import i18next, { type i18n as I18n } from 'i18next'
import FsBackend from 'i18next-fs-backend'
import { I18N_BASE_OPTIONS, NAMESPACES } from '#shared/i18n.ts'
import { LOCALES, type Locale } from '#shared/locales.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Root i18next instance with every locale and namespace loaded at start. */
    i18n: I18n
    /** A cheap per-request instance for one locale, sharing the root's store. */
    i18nFor: (locale: Locale) => I18n
  }
}

export type I18nPluginOptions = { localesDir: string }

/** Why a locale file did not load, naming file and, for a syntax error, the position. */
function describeLocaleProblem(path: string): string {
  try {
    JSON.parse(readFileSync(path, 'utf8'))
    return `Locale file not loaded: ${path}`
  } catch (error) {
    return `Locale file invalid: ${path}: ${(error as Error).message}`
  }
}

export const i18nPlugin = fp<I18nPluginOptions>(
  async (app, { localesDir }) => {
    const root = i18next.createInstance()
    await root.use(FsBackend).init({
      ...I18N_BASE_OPTIONS,
      initAsync: true,
      lng: 'en',
      preload: [...LOCALES],
      ns: [...NAMESPACES],
      backend: { loadPath: join(localesDir, '{{lng}}', '{{ns}}.json') },
    })
    for (const locale of LOCALES) {
      for (const ns of NAMESPACES) {
        if (!root.hasResourceBundle(locale, ns)) {
          throw new Error(describeLocaleProblem(join(localesDir, locale, `${ns}.json`)))
        }
      }
    }
    app.decorate('i18n', root)
    // `initAsync: false`: with the default, a clone renders raw keys until it has "loaded".
    app.decorate('i18nFor', (locale: Locale) =>
      root.cloneInstance({ lng: locale, initAsync: false }),
    )
  },
  { name: 'i18n' },
)
