import type { HydrationState } from 'react-router-dom'
import type { ContactFormState, FormToken } from './contact-fields.ts'
import type { LocaleResources } from './texts.ts'
import type { PolicyFacts } from './legal.ts'
import type { Locale } from './locales.ts'

/**
 * What travels from the server's render to the browser: the data embedded in every page and
 * the files it links. Both sides import these shapes from here.
 */

/** Files the document links: stylesheets, module chunks to preload, fonts to preload. */
type PageAssets = {
  /** Modules React starts with `<script type="module">`: the client entry (in development
   * also Vite's HMR client). */
  bootstrap: readonly string[]
  /** The `integrity` of bootstrap modules from a CDN (`CDN_URL`), by URL; the import map
   * names every other script's (server/render/integrity.ts). */
  integrity?: Readonly<Record<string, string>>
  styles: readonly string[]
  modules: readonly string[]
  fonts: readonly string[]
}

/** The files a page needs, from the build's manifest (or, in development, from Vite). */
export type AssetResolver = (sources: readonly string[]) => PageAssets

/** Everything the browser needs to hydrate, embedded as one JSON block (no inline script). */
export type AppData = {
  locale: Locale
  baseUrl: string
  year: number
  policy: PolicyFacts
  assets: PageAssets
  resources: LocaleResources
  router: HydrationState
  /** Development only: the server-side render error, source-mapped, for the 500 page. */
  devError?: DevError
  /** A plain form post shown again (errors and input, or an outcome). */
  formState?: ContactFormState
  /** The token of the form this page shows, if it shows one. */
  formToken?: FormToken
}

export type DevError = { message: string; stack: string }

export const APP_DATA_ID = 'app-data'
export const RUNTIME_CONFIG_ID = 'runtime-config'

/**
 * Runtime configuration embedded in every page as its own small block (the client runtime
 * reads it without parsing the page's texts), read via `runtimeConfig()`.
 */
export type RuntimeConfig = {
  app: {
    baseURL: string
    cdnURL: string
    buildAssetsDir: string
    buildId: string
    buildTimestamp: number
    buildCheckIntervalMs: number
  }
}

/**
 * JSON for a `<script>` data block (the page data, the runtime configuration, structured
 * data): `<` is escaped so no `</script>` or `<!--` can end the block, and U+2028/U+2029 so
 * the text is also valid JavaScript.
 */
export function serializeForScript(data: unknown): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}
