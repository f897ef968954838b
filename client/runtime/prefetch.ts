import { matchRoutes, type createBrowserRouter } from 'react-router-dom'
import type { PageHandle } from '../routes.tsx'
import { IDLE_FALLBACK_BUDGET_MS, PREFETCH_INTENT_DELAY_MS } from './constants.ts'

type BrowserRouter = ReturnType<typeof createBrowserRouter>

/** What `navigator.connection` tells, where the browser has it (Chromium). */
type Connection = { saveData?: boolean; effectiveType?: string }

export type PrefetchOptions = {
  router: BrowserRouter
  connection?: Connection
}

/**
 * Loads a page's chunk and texts before the click that needs them
 * (docs/architecture.md#navigations-a-visitor-feels): when a pointer rests on an internal link for
 * 80 ms, when a link gets keyboard focus, when a touch starts on it, and, on a fast connection, for
 * the links in view once the browser is idle. Each page once; never the page already shown; nothing
 * at all when the visitor asked to save data or the connection is 2G. Only this build's own pages
 * are ever fetched.
 */
export function startPrefetch({ router, connection }: PrefetchOptions): void {
  if (connection?.saveData || /(^|-)2g$/.test(connection?.effectiveType ?? '')) return
  const started = new Set<string>()

  function prefetch(anchor: HTMLAnchorElement) {
    if (anchor.hasAttribute('download') || (anchor.target && anchor.target !== '_self')) return
    const url = new URL(anchor.href)
    if (url.origin !== window.location.origin || url.pathname === window.location.pathname) return
    const match = matchRoutes(router.routes, url.pathname, router.basename)?.at(-1)
    const handle = match?.route.handle as PageHandle | undefined
    const id = match?.route.id
    if (!handle?.preload || !id || started.has(id)) return
    started.add(id)
    // A failure is the click's to report (the chunk error view); a later intent may retry.
    handle.preload().catch(() => started.delete(id))
  }

  const anchorOf = (target: EventTarget | null) =>
    target instanceof Element ? target.closest<HTMLAnchorElement>('a[href]') : null

  let resting: { anchor: HTMLAnchorElement; timer: number } | undefined
  document.addEventListener('pointerover', (event) => {
    if (event.pointerType === 'touch') return
    const anchor = anchorOf(event.target)
    if (!anchor || anchor === resting?.anchor) return
    if (resting) window.clearTimeout(resting.timer)
    resting = {
      anchor,
      timer: window.setTimeout(() => prefetch(anchor), PREFETCH_INTENT_DELAY_MS),
    }
  })
  document.addEventListener('pointerout', (event) => {
    if (!resting || anchorOf(event.relatedTarget) === resting.anchor) return
    window.clearTimeout(resting.timer)
    resting = undefined
  })
  document.addEventListener('focusin', (event) => {
    const anchor = anchorOf(event.target)
    if (anchor) prefetch(anchor)
  })
  document.addEventListener(
    'touchstart',
    (event) => {
      const anchor = anchorOf(event.target)
      if (anchor) prefetch(anchor)
    },
    { passive: true },
  )

  // Links in view, on a connection that affords it: after each navigation, once idle.
  if (connection?.effectiveType !== '4g' || typeof IntersectionObserver !== 'function') return
  const observer = new IntersectionObserver((entries) => {
    for (const entry of entries) {
      if (!entry.isIntersecting) continue
      observer.unobserve(entry.target)
      prefetch(entry.target as HTMLAnchorElement)
    }
  })
  const observeLinks = () => {
    observer.disconnect()
    for (const anchor of document.querySelectorAll<HTMLAnchorElement>('a[href]')) {
      observer.observe(anchor)
    }
  }
  const whenIdle = (callback: () => void) => {
    if (typeof window.requestIdleCallback === 'function') window.requestIdleCallback(callback)
    else window.setTimeout(callback, IDLE_FALLBACK_BUDGET_MS)
  }
  whenIdle(observeLinks)
  router.subscribe((state) => {
    if (state.navigation.state === 'idle') whenIdle(observeLinks)
  })
}
