/**
 * The browser's toolbar colour (`theme-color`) for each colour scheme: the hero's surface,
 * `--color-surface-dark` in client/styles/tokens.css for that scheme (a browser test compares
 * them). The web manifest can name only one, the light one (scripts/write-icons.ts adds it).
 * One per scheme, as the theme follows the device
 * (docs/decisions/the-dark-theme-follows-the-device.md).
 */
export const THEME_COLORS = {
  light: '#0d2a43',
  dark: '#0b1e31',
} as const satisfies Record<'light' | 'dark', `#${string}`>
