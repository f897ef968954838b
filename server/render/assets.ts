import { readFile } from 'node:fs/promises'
import type { AssetResolver } from '#shared/page-data.ts'
import type { ScriptIntegrity } from './integrity.ts'

/** One entry of Vite's `.vite/manifest.json`. */
type ManifestChunk = {
  file: string
  src?: string
  isEntry?: boolean
  imports?: string[]
  css?: string[]
  assets?: string[]
}
type Manifest = Record<string, ManifestChunk>

export const CLIENT_ENTRY = 'client/entry-client.tsx'
/** What the entry loads after the first paint: React, the router and the app shell. */
export const HYDRATE_MODULE = 'client/hydrate.tsx'
/** The font file every first view needs; the small Polish one loads when a page uses it. */
const PRELOAD_FONT = /inter-subset-latin-[\w-]+\.woff2$/

/** Where a page's scripts come from: the site (`/`), or a CDN with their integrity. */
export type ScriptOrigin = { base: string; integrity?: ScriptIntegrity }

/**
 * Map page sources to the hashed files of the build: the entry with its static imports and CSS,
 * plus each page chunk with its imports and CSS, so the browser fetches them in parallel.
 * Scripts come from `scripts.base`; stylesheets and fonts always from the site itself, on the
 * connection the page came by (what the first paint needs gains nothing from another origin).
 */
export function createAssetResolver(
  manifest: Manifest,
  scripts: ScriptOrigin = { base: '/' },
): AssetResolver {
  const script = (file: string) => `${scripts.base}${file}`
  const url = (file: string) => `/${file}`
  const entry = manifest[CLIENT_ENTRY]
  if (!entry) throw new Error(`The client manifest has no ${CLIENT_ENTRY}; run the build`)
  const font = Object.values(manifest)
    .flatMap((chunk) => chunk.assets ?? [])
    .find((file) => PRELOAD_FONT.test(file))

  function collect(key: string, modules: Set<string>, styles: Set<string>) {
    const chunk = manifest[key]
    if (!chunk || modules.has(chunk.file)) return
    modules.add(chunk.file)
    for (const css of chunk.css ?? []) styles.add(css)
    for (const imported of chunk.imports ?? []) collect(imported, modules, styles)
  }

  return (sources) => {
    const modules = new Set<string>()
    const styles = new Set<string>()
    for (const key of [CLIENT_ENTRY, HYDRATE_MODULE, ...sources]) collect(key, modules, styles)
    modules.delete(entry.file)
    const bootstrap = script(entry.file)
    const integrity = scripts.integrity?.of(bootstrap)
    return {
      bootstrap: [bootstrap],
      ...(integrity ? { integrity: { [bootstrap]: integrity } } : {}),
      modules: [...modules].map(script),
      styles: [...styles].map(url),
      fonts: font ? [url(font)] : [],
    }
  }
}

export async function loadManifest(path: string): Promise<Manifest> {
  return JSON.parse(await readFile(path, 'utf8')) as Manifest
}
