import { RUNTIME_CONFIG_ID, type RuntimeConfig } from '#shared/page-data.ts'

let cached: RuntimeConfig | null = null

/** The runtime configuration the server embedded in the page; read once. */
export function runtimeConfig(): RuntimeConfig {
  if (cached) return cached
  const json = document.getElementById(RUNTIME_CONFIG_ID)?.textContent
  if (!json) throw new Error(`#${RUNTIME_CONFIG_ID} is missing`)
  cached = JSON.parse(json) as RuntimeConfig
  return cached
}

/** URL of a build manifest file (`builds/latest.json`) on the site's own origin. */
export function buildManifestUrl(file: string): string {
  const { baseURL, buildAssetsDir } = runtimeConfig().app
  return `${baseURL.replace(/\/$/, '')}${buildAssetsDir}builds/${file}`
}
