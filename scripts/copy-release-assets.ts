// Copies the hashed client files of one release (those its Vite manifest names, with their
// precompressed twins, and the share images its share-images.json names) into another build's
// folder, and that release's build info beside it. The image build runs it with the
// previous release's files (`--build-arg PREVIOUS_IMAGE=…`), so during a rolling update the
// new pods also answer the chunk requests of pages the old pods rendered. Only the previous
// release's own files travel: they do not pile up over releases.
// Usage: node scripts/copy-release-assets.ts <previous dist> <target dist>
import { copyFileSync, existsSync, mkdirSync, readFileSync } from 'node:fs'
import { dirname, join } from 'node:path'

/** Read by server/plugins/renderer.ts (kept equal there). */
const PREVIOUS_BUILD_FILE = 'previous-build-info.json'
/** Written by scripts/write-share-images.ts (`SHARE_IMAGE_MANIFEST`, kept equal there). */
const SHARE_IMAGE_MANIFEST = 'share-images.json'

type Chunk = { file: string; css?: string[]; assets?: string[] }

/** The files a client build's manifest names (entry and lazy chunks, styles, fonts, images). */
export function releaseFiles(clientDir: string): string[] {
  const manifest = JSON.parse(
    readFileSync(join(clientDir, '.vite', 'manifest.json'), 'utf8'),
  ) as Record<string, Chunk>
  const files = new Set<string>()
  for (const chunk of Object.values(manifest)) {
    for (const file of [chunk.file, ...(chunk.css ?? []), ...(chunk.assets ?? [])]) {
      // Hashed files under assets/ only: nothing can be written outside the target.
      if (/^assets\/[\w.-]+$/.test(file)) files.add(file)
    }
  }
  return [...files].sort()
}

/**
 * The share images a build made: a preview a crawler fetched from an old pod names its
 * picture, which a new pod then serves.
 */
export function shareImageFiles(distDir: string): string[] {
  const path = join(distDir, SHARE_IMAGE_MANIFEST)
  if (!existsSync(path)) return []
  const { images } = JSON.parse(readFileSync(path, 'utf8')) as { images: Record<string, string> }
  // `/assets/share/<name>.png` only: nothing can be written outside the target.
  return Object.values(images)
    .map((url) => url.slice(1))
    .filter((file) => /^assets\/share\/[\w.-]+\.png$/.test(file))
    .sort()
}

/** Copies a release's client files and build info from one `dist` folder into another. */
export function copyReleaseAssets(fromDist: string, toDist: string): number {
  const from = join(fromDist, 'client')
  const to = join(toDist, 'client')
  if (!existsSync(join(from, '.vite', 'manifest.json'))) return 0
  let copied = 0
  for (const file of [...releaseFiles(from), ...shareImageFiles(fromDist)]) {
    for (const variant of [file, `${file}.br`, `${file}.gz`]) {
      if (!existsSync(join(from, variant))) continue
      mkdirSync(dirname(join(to, variant)), { recursive: true })
      copyFileSync(join(from, variant), join(to, variant))
      copied++
    }
  }
  if (existsSync(join(fromDist, 'build-info.json'))) {
    copyFileSync(join(fromDist, 'build-info.json'), join(toDist, PREVIOUS_BUILD_FILE))
  }
  return copied
}

if (import.meta.main) {
  const [from, to] = process.argv.slice(2)
  if (!from || !to) {
    console.error('usage: copy-release-assets.ts <previous dist> <target dist>')
    process.exit(2)
  }
  console.log(`copied ${copyReleaseAssets(from, to)} files of the previous release`)
}
