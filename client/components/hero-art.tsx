import { lazy, memo, Suspense, useState, type ComponentType } from 'react'

/**
 * The hero's drawing: decorative and the same for every visitor, so the server writes it and
 * the browser never hydrates it; its markup is not part of the home page's first-view script
 * (docs/decisions/hero-drawing.md). A home page rendered in the browser (a navigation) shows
 * it from a chunk of its own.
 */
const loadDrawing = async () => ({
  default: (await import('./hero-illustration.tsx')).HeroIllustration,
})

/**
 * The drawing's component once its module is here: on the server at once (a server render
 * that suspends would need an inline script); in the browser when this module is evaluated
 * after the first page, as the home page is loaded ahead of a navigation to it, so the
 * navigation shows the drawing with the page.
 */
let loaded: ComponentType | undefined = import.meta.env.SSR
  ? (await loadDrawing()).default
  : undefined
if (!import.meta.env.SSR && document.documentElement.dataset.hydrated) {
  void loadDrawing().then((module) => {
    loaded = module.default
  })
}

/**
 * While the server's page hydrates: suspended for good, so React keeps the server's markup.
 * Nothing can update it later: it takes no props (memo) and reads no context.
 */
const KeptDrawing = lazy(() => new Promise<never>(() => {}))

/** A home page rendered in the browser before the drawing's module came. */
const LoadingDrawing = lazy(loadDrawing)

export const HeroArt = memo(function HeroArt() {
  // Decided in hydration's first pass (this component is outside the boundary): the page is
  // marked hydrated only after it.
  const [Drawing] = useState(
    () => loaded ?? (document.documentElement.dataset.hydrated ? LoadingDrawing : KeptDrawing),
  )
  return (
    <Suspense>
      <Drawing />
    </Suspense>
  )
})
