import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { copyReleaseAssets, releaseFiles, shareImageFiles } from '#scripts/copy-release-assets.ts'
import { SHARE_IMAGE_MANIFEST, type ShareImageManifest } from '#shared/share-images.ts'

// The image build carries the previous release's files into the new one (Dockerfile,
// PREVIOUS_IMAGE): its chunks, and the share images its pages' previews name.

const DIST = join(import.meta.dirname, '..', '..', 'dist')
const target = mkdtempSync(join(tmpdir(), 'release-'))

afterAll(() => {
  rmSync(target, { recursive: true, force: true })
})

describe('copying a release into the next one', () => {
  it('carries every file the manifest names and every share image', () => {
    const copied = copyReleaseAssets(DIST, target)
    const manifest = JSON.parse(
      readFileSync(join(DIST, SHARE_IMAGE_MANIFEST), 'utf8'),
    ) as ShareImageManifest
    const images = Object.values(manifest.images)
    expect(shareImageFiles(DIST)).toHaveLength(images.length)
    for (const url of images) expect(existsSync(join(target, 'client', url)), url).toBe(true)
    for (const file of releaseFiles(join(DIST, 'client'))) {
      expect(existsSync(join(target, 'client', file)), file).toBe(true)
    }
    expect(copied).toBeGreaterThanOrEqual(images.length + releaseFiles(join(DIST, 'client')).length)
    expect(existsSync(join(target, 'previous-build-info.json'))).toBe(true)
  })
})
