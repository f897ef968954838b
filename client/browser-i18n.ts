import { createInstance, type i18n as I18n } from 'i18next'
import {
  I18N_BASE_OPTIONS,
  LOCALE_UPDATE_EVENT,
  type LocaleResources,
  type LocaleUpdate,
  type FileNamespace,
} from '#shared/texts.ts'
import type { Locale } from '#shared/locales.ts'
import { typesetPostProcessor } from '#shared/typography.ts'

type TextBundles = (typeof import('./text-bundles.ts'))['bundles']

let bundleMap: Promise<TextBundles> | undefined

/**
 * The map of the bundles a navigation may load (client/text-bundles.ts), fetched once: after
 * the first view (`start` in client/hydrate.tsx), or by the first navigation that needs it.
 */
export function textBundles(): Promise<TextBundles> {
  bundleMap ??= import('./text-bundles.ts').then((module) => module.bundles)
  return bundleMap
}

/** The browser's instance, initialised synchronously from the texts embedded in the page. */
export function createClientI18n(locale: Locale, resources: LocaleResources): I18n {
  const i18n = createInstance()
  // The server's typesetting (shared/typography.ts), so hydration finds the HTML it wrote.
  i18n.use(typesetPostProcessor)
  // Synchronous (`initAsync: false` in I18N_BASE_OPTIONS) and from the page's own texts: the
  // first render has every text, no request is made and no key is ever shown.
  void i18n.init({
    ...I18N_BASE_OPTIONS,
    lng: locale,
    ns: Object.keys(resources),
    resources: { [locale]: resources },
    // Pages reached later bring their texts themselves (`loadNamespaces`), not a backend.
    partialBundledLanguages: true,
  })
  if (import.meta.hot) {
    // Development: an edited locale file replaces its bundle in the open page, no reload.
    import.meta.hot.on(LOCALE_UPDATE_EVENT, ({ locale: lng, ns, resources }: LocaleUpdate) => {
      if (lng !== i18n.language) return
      i18n.removeResourceBundle(lng, ns)
      i18n.addResourceBundle(lng, ns, resources, false, true)
    })
  }
  return i18n
}

/** Add the namespaces a page needs that the page did not embed (client-side navigation). */
export async function loadNamespaces(
  i18n: I18n,
  namespaces: readonly FileNamespace[],
): Promise<void> {
  const locale = i18n.language
  const missing = namespaces.filter((ns) => !i18n.hasResourceBundle(locale, ns))
  if (missing.length === 0) return
  const bundles = await textBundles()
  await Promise.all(
    missing.map(async (ns) => {
      const load = bundles[`./${locale}/${ns}.json`]
      if (!load) throw new Error(`Missing locale bundle ${locale}/${ns}`)
      const bundle = (await load()).default
      // Development only: in a production build this is `bundle` and the function is gone.
      const texts = import.meta.env.DEV ? await pseudoInDevelopment(i18n, bundle) : bundle
      i18n.addResourceBundle(locale, ns, texts, true, true)
    }),
  )
}

/**
 * Development (`npm run dev` with `PSEUDO_LOCALE=1`): the texts of a page reached later are
 * pseudo-localised like the ones the server embedded, which show whether the pseudo-locale is
 * on. Never in a production build (`import.meta.env.DEV` is false there).
 */
async function pseudoInDevelopment(i18n: I18n, bundle: Record<string, unknown>) {
  if (i18n.language !== 'en') return bundle
  const { PSEUDO_START, pseudoLocalizeTree } = await import('#shared/pseudo-locale.ts')
  const sample = i18n.getResource('en', 'common', 'site.name') as unknown
  return typeof sample === 'string' && sample.startsWith(PSEUDO_START)
    ? pseudoLocalizeTree(bundle)
    : bundle
}
