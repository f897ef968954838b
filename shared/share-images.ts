import type { Locale } from './locales.ts'
import type { PageId } from './pages.ts'

/**
 * Share images: one picture per page and language, made by the build
 * (scripts/write-share-images.ts), linked by the server's page head (`og:image`). The 404 and
 * 500 pages show the generic one.
 */
export const SHARE_IMAGE_SIZE = { width: 1200, height: 630 } as const

/** What a share image is of: a page of the table, or the site as a whole. */
export type ShareSubject = PageId | 'generic'

/** Key of an image in the manifest: `de/service-cloud-infrastructure`, `pl/generic`. */
export type ShareImageKey = `${Locale}/${ShareSubject}`

/** `dist/share-images.json`: each image's URL path (hashed file name under `/assets/share/`). */
export type ShareImageManifest = {
  width: number
  height: number
  images: Record<ShareImageKey, string>
}

export const SHARE_IMAGE_MANIFEST = 'share-images.json'

export function shareImageKey(locale: Locale, subject: ShareSubject): ShareImageKey {
  return `${locale}/${subject}`
}
