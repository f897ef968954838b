import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import fp from 'fastify-plugin'
import type * as EntryServer from '#client/entry-server.tsx'
import type { AssetResolver } from '#shared/page-data.ts'
import { SHARE_IMAGE_MANIFEST, type ShareImageManifest } from '#shared/share-images.ts'
import { createAssetResolver, loadManifest, type ScriptOrigin } from '../render/assets.ts'

type BuildInfo = { id: string; timestamp: number }

/** Written next to `build-info.json` by scripts/copy-release-assets.ts in the image build. */
const PREVIOUS_BUILD_FILE = 'previous-build-info.json'

export type Renderer = {
  render: typeof EntryServer.render
  assets: AssetResolver
  build: BuildInfo
  /**
   * The release this image replaced, whose hashed files it also serves (Dockerfile,
   * PREVIOUS_IMAGE): pages of that build still find their chunks and their build meta here.
   */
  previousBuild?: BuildInfo
  /** The build's share images (scripts/write-share-images.ts); none while developing. */
  shareImages?: ShareImageManifest
  /** What opens every page's head: the import map of scripts from a CDN (integrity.ts). */
  headStart?: string
}

declare module 'fastify' {
  interface FastifyInstance {
    renderer: Renderer
  }
}

export type RendererPluginOptions = {
  /** Output of `npm run build`: `client/`, `server/` and `build-info.json`. */
  distDir: string
  /** Where the pages' scripts come from (a CDN with their integrity, or the site). */
  scripts: ScriptOrigin
  /** Lets tests wrap the real renderer (to force a render error, say). */
  wrap?: (renderer: Renderer) => Renderer
}

/** Loads the built server entry and the client manifest once, at start. */
async function loadRenderer(
  distDir: string,
  scripts: ScriptOrigin = { base: '/' },
): Promise<Renderer> {
  const entryPath = join(distDir, 'server', 'entry-server.js')
  const entry = (await import(pathToFileURL(entryPath).href)) as typeof EntryServer
  const manifest = await loadManifest(join(distDir, 'client', '.vite', 'manifest.json'))
  const build = JSON.parse(await readFile(join(distDir, 'build-info.json'), 'utf8')) as BuildInfo
  const previousBuild = await readFile(join(distDir, PREVIOUS_BUILD_FILE), 'utf8').then(
    (json) => JSON.parse(json) as BuildInfo,
    () => undefined,
  )
  const shareImages = JSON.parse(
    await readFile(join(distDir, SHARE_IMAGE_MANIFEST), 'utf8'),
  ) as ShareImageManifest
  return {
    render: entry.render,
    assets: createAssetResolver(manifest, scripts),
    ...(scripts.integrity ? { headStart: scripts.integrity.importMapElement } : {}),
    build,
    shareImages,
    ...(previousBuild && previousBuild.id !== build.id ? { previousBuild } : {}),
  }
}

export const rendererPlugin = fp<RendererPluginOptions>(
  async (app, { distDir, scripts, wrap }) => {
    let renderer: Renderer
    try {
      renderer = await loadRenderer(distDir, scripts)
    } catch (error) {
      throw new Error(`No usable build in ${distDir}: run \`npm run build\` first`, {
        cause: error,
      })
    }
    app.decorate('renderer', wrap ? wrap(renderer) : renderer)
  },
  { name: 'renderer' },
)
