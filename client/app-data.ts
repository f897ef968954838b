import type { HydrationState } from 'react-router-dom'
import type { ContactFormState } from '#shared/contact-form.ts'
import type { LocaleResources } from '#shared/i18n.ts'
import type { Locale } from '#shared/locales.ts'

/** Files the document links: stylesheets, module chunks to preload, fonts to preload. */
export type PageAssets = {
  /** Modules React starts with `<script type="module">`: the client entry (in development
   * also Vite's HMR client). */
  bootstrap: readonly string[]
  styles: readonly string[]
  modules: readonly string[]
  fonts: readonly string[]
}

/** Everything the browser needs to hydrate, embedded as one JSON block (no inline script). */
export type AppData = {
  locale: Locale
  baseUrl: string
  year: number
  assets: PageAssets
  resources: LocaleResources
  router: HydrationState
  /** Development only: the server-side render error, source-mapped, for the 500 page. */
  devError?: DevError
  /** A plain form post shown again (errors and input, or an outcome). */
  formState?: ContactFormState
  runtime: RuntimeConfig
}

export type DevError = { message: string; stack: string }

export const APP_DATA_ID = 'app-data'
export const RUNTIME_CONFIG_ID = 'runtime-config'

/** Runtime configuration embedded in every page (DESIGN.md 7), read via `runtimeConfig()`. */
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
 * JSON for a `<script type="application/json">`: `<` is escaped so no `</script>` or `<!--`
 * can end the block, and U+2028/U+2029 so the text is also valid JavaScript.
 */
export function serializeAppData(data: AppData | RuntimeConfig): string {
  return JSON.stringify(data)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}
