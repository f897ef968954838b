// First: React Fast Refresh's runtime while developing (an empty module in production builds).
import '@vitejs/plugin-react/preamble'
import { embeddedData } from './embedded-data.ts'
import './styles/global.css'

/**
 * Resolves once the browser has painted the server's HTML. Evaluating React and hydrating
 * take a phone a few hundred milliseconds; done first, they would hold back the first paint
 * of a page that is already complete. A hidden tab paints nothing and starts at once
 * (docs/decisions/paint-then-hydrate.md).
 */
function afterFirstPaint(): Promise<void> {
  if (document.visibilityState === 'hidden') return Promise.resolve()
  return new Promise((resolve) => requestAnimationFrame(() => setTimeout(resolve, 0)))
}

/**
 * Fetch the framework and the page's chunks in parallel, not one import after another. They
 * are not preloaded from the head: on a slow connection they would share the bandwidth with
 * the stylesheet and the font and delay the first paint (Lighthouse: LCP 2.1 s → 1.3 s).
 */
function preloadModules() {
  const { assets } = embeddedData().data
  for (const href of assets.modules) {
    const link = document.createElement('link')
    link.rel = 'modulepreload'
    link.href = href
    document.head.append(link)
  }
}

// A failed start leaves the server-rendered page working; the reason goes to the console.
afterFirstPaint()
  .then(() => {
    preloadModules()
    return import('./hydrate.tsx')
  })
  .then(({ start }) => start())
  .catch((error: unknown) => {
    console.error('The app could not start; the page keeps working without it.', error)
  })
