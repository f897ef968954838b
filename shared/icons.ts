/**
 * The icons the build makes from the brand mark (`public/favicon.svg`, see
 * scripts/write-icons.ts): the document links the touch icon, the web manifest lists the rest
 * (the build adds them to `public/site.webmanifest`).
 */

export type IconSpec = {
  file: string
  size: number
  /** `source`: the mark as drawn; `full`: edge to edge; `maskable`: edge to edge, safe zone. */
  shape: 'source' | 'full' | 'maskable'
  inManifest: boolean
}

export const ICONS = [
  { file: 'apple-touch-icon.png', size: 180, shape: 'full', inManifest: false },
  { file: 'icon-192.png', size: 192, shape: 'source', inManifest: true },
  { file: 'icon-512.png', size: 512, shape: 'source', inManifest: true },
  { file: 'icon-maskable-512.png', size: 512, shape: 'maskable', inManifest: true },
] as const satisfies readonly IconSpec[]

/** The touch icon iOS looks for (it also asks for this path without a link). */
export const TOUCH_ICON = `/${ICONS[0].file}`
