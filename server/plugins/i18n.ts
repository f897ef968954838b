import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import fp from 'fastify-plugin'
import { TEXT_DEFAULTS, type FileResources } from '#shared/texts.ts'
import { deriveNamespaces, FILE_NAMESPACES } from '#shared/namespaces.ts'
import { LOCALES, type Locale } from '#shared/locales.ts'
import { LocaleTexts } from '#shared/translator.ts'

/** Every locale's texts, each with its translator (shared/translator.ts). */
export type SiteTexts = Readonly<Record<Locale, LocaleTexts>>

declare module 'fastify' {
  interface FastifyInstance {
    /** Every locale's texts, loaded and checked at start. */
    texts: SiteTexts
  }
}

export type I18nPluginOptions = { localesDir: string }

/** One locale file's texts; a missing or broken file stops the start, naming file and position. */
async function readLocaleFile(path: string): Promise<Record<string, unknown>> {
  let text: string
  try {
    text = await readFile(path, 'utf8')
  } catch (error) {
    throw new Error(`Locale file not loaded: ${path}: ${(error as Error).message}`)
  }
  try {
    return JSON.parse(text) as Record<string, unknown>
  } catch (error) {
    throw new Error(`Locale file invalid: ${path}: ${(error as Error).message}`)
  }
}

/**
 * (Re)make a locale's derived namespaces (the service cards) from its files' texts: at start,
 * and in development after a text was edited.
 */
export function addDerivedNamespaces(texts: LocaleTexts): Record<string, unknown> {
  const derived = deriveNamespaces((ns) => texts.bundle(ns) as FileResources[typeof ns])
  for (const [ns, bundle] of Object.entries(derived)) {
    texts.set(ns as keyof typeof derived, bundle)
  }
  return derived
}

/**
 * Every locale's texts, loaded and checked: what the server renders with (and the build's
 * share images are written with).
 */
export async function loadSiteTexts(localesDir: string): Promise<SiteTexts> {
  const entries = await Promise.all(
    LOCALES.map(async (locale) => {
      const files = await Promise.all(
        FILE_NAMESPACES.map(
          async (ns) => [ns, await readLocaleFile(join(localesDir, locale, `${ns}.json`))] as const,
        ),
      )
      const texts = new LocaleTexts(locale, Object.fromEntries(files), TEXT_DEFAULTS)
      addDerivedNamespaces(texts)
      return [locale, texts] as const
    }),
  )
  return Object.fromEntries(entries) as SiteTexts
}

export const i18nPlugin = fp<I18nPluginOptions>(
  async (app, { localesDir }) => {
    app.decorate('texts', await loadSiteTexts(localesDir))
  },
  { name: 'i18n' },
)
