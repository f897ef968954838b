import {
  LOCALE_UPDATE_EVENT,
  TEXT_DEFAULTS,
  type FileNamespace,
  type LocaleResources,
  type LocaleUpdate,
} from '#shared/texts.ts'
import type { Locale } from '#shared/locales.ts'
import { LocaleTexts } from '#shared/translator.ts'

type JsonModule = { default: Record<string, unknown> }

// One small chunk per locale and namespace: the browser only loads what the page needs.
const bundles = import.meta.glob<JsonModule>('../locales/*/*.json')

/** The browser's texts, from those embedded in the page. */
export function createClientTexts(locale: Locale, resources: LocaleResources): LocaleTexts {
  const texts = new LocaleTexts(locale, resources, TEXT_DEFAULTS)
  if (import.meta.hot) {
    // Development: an edited locale file replaces its bundle in the open page, no reload.
    import.meta.hot.on(LOCALE_UPDATE_EVENT, ({ locale: lng, ns, resources }: LocaleUpdate) => {
      if (lng === locale) texts.set(ns as FileNamespace, resources)
    })
  }
  return texts
}

/** Add the namespaces a page needs that the page did not embed (client-side navigation). */
export async function loadNamespaces(
  texts: LocaleTexts,
  namespaces: readonly FileNamespace[],
): Promise<void> {
  await Promise.all(
    namespaces
      .filter((ns) => !texts.has(ns))
      .map(async (ns) => {
        const load = bundles[`../locales/${texts.locale}/${ns}.json`]
        if (!load) throw new Error(`Missing locale bundle ${texts.locale}/${ns}`)
        const bundle = await load()
        texts.set(ns, bundle.default)
      }),
  )
}
