import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fp from 'fastify-plugin'
import i18next, { type i18n as I18n } from 'i18next'
import FsBackend from 'i18next-fs-backend'
import { I18N_BASE_OPTIONS, type FileResources } from '#shared/texts.ts'
import { typesetPostProcessor } from '#shared/typography.ts'
import { deriveNamespaces, FILE_NAMESPACES } from '#shared/namespaces.ts'
import { LOCALES, type Locale } from '#shared/locales.ts'
import { pseudoLocalizeTree } from '#shared/pseudo-locale.ts'

declare module 'fastify' {
  interface FastifyInstance {
    /** Root i18next instance with every locale and namespace loaded at start. */
    i18n: I18n
    /** The instance that renders `locale`: made once at start, sharing the root's store. */
    i18nFor: (locale: Locale) => I18n
  }
}

export type I18nPluginOptions = {
  localesDir: string
  /** The English texts replaced by the pseudo-locale (`PSEUDO_LOCALE`, never in production). */
  pseudoLocale?: boolean
}

/** Why a locale file did not load, naming file and, for a syntax error, the position. */
function describeLocaleProblem(path: string): string {
  let text: string
  try {
    text = readFileSync(path, 'utf8')
  } catch (error) {
    return `Locale file not loaded: ${path}: ${(error as Error).message}`
  }
  try {
    JSON.parse(text)
    return `Locale file not loaded: ${path}`
  } catch (error) {
    return `Locale file invalid: ${path}: ${(error as Error).message}`
  }
}

/**
 * (Re)make a locale's derived namespaces (the service cards) from its files' texts: at start,
 * and in development after a text was edited.
 */
export function addDerivedNamespaces(i18n: I18n, locale: Locale): Record<string, unknown> {
  const derived = deriveNamespaces(
    (ns) => i18n.getResourceBundle(locale, ns) as FileResources[typeof ns],
  )
  for (const [ns, bundle] of Object.entries(derived)) {
    i18n.addResourceBundle(locale, ns, bundle, false, true)
  }
  return derived
}

/**
 * Every locale's texts, read by i18next-fs-backend and checked: the root instance the server
 * renders with (and the build's share images are written with). A file the backend could not
 * read stops the start, naming the file and, for broken JSON, the position.
 */
export async function loadSiteTexts(localesDir: string, pseudoLocale = false): Promise<I18n> {
  const root = i18next.createInstance()
  // Typesetting (shared/typography.ts); the per-locale clones share the root's processors.
  root.use(typesetPostProcessor)
  await root.use(FsBackend).init({
    ...I18N_BASE_OPTIONS,
    initAsync: true,
    lng: 'en',
    preload: [...LOCALES],
    ns: [...FILE_NAMESPACES],
    backend: { loadPath: join(localesDir, '{{lng}}', '{{ns}}.json') },
  })
  for (const locale of LOCALES) {
    for (const ns of FILE_NAMESPACES) {
      if (!root.hasResourceBundle(locale, ns)) {
        throw new Error(describeLocaleProblem(join(localesDir, locale, `${ns}.json`)))
      }
    }
    if (pseudoLocale && locale === 'en') pseudoLocalizeEnglish(root, FILE_NAMESPACES)
    addDerivedNamespaces(root, locale)
  }
  return root
}

/** The English texts of `namespaces` replaced by their pseudo-localised form. */
export function pseudoLocalizeEnglish(i18n: I18n, namespaces: readonly string[]): void {
  for (const ns of namespaces) {
    const bundle = i18n.getResourceBundle('en', ns) as Record<string, unknown>
    i18n.addResourceBundle('en', ns, pseudoLocalizeTree(bundle), false, true)
  }
}

export const i18nPlugin = fp<I18nPluginOptions>(
  async (app, { localesDir, pseudoLocale = false }) => {
    const root = await loadSiteTexts(localesDir, pseudoLocale)
    // One clone per locale, made once: a request only reads texts, so all requests in a
    // language share it and a render costs no instance. The clones share the root's store,
    // so texts added to the root (development edits) are theirs at once. `initAsync: false`:
    // with the default, a clone renders raw keys until it has "loaded".
    const instances = Object.fromEntries(
      LOCALES.map((locale) => [locale, root.cloneInstance({ lng: locale, initAsync: false })]),
    ) as Record<Locale, I18n>
    app.decorate('i18n', root)
    app.decorate('i18nFor', (locale: Locale) => instances[locale])
  },
  { name: 'i18n' },
)
