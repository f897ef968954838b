import type { createBrowserRouter } from 'react-router-dom'
import { startBuildWatch, type BuildInfo } from './build-watch.ts'
import { http, onBuildId } from './http-client.ts'
import { startPrefetch } from './prefetch.ts'
import { reloadGuarded } from './reload-guard.ts'
import { buildManifestUrl, runtimeConfig } from './runtime-config.ts'

type BrowserRouter = ReturnType<typeof createBrowserRouter>

/**
 * What keeps an open page working across deployments
 * (docs/operations.md#deployments-and-version-skew): new-build detection and, once this page is
 * outdated, turning the next in-app navigation into a full page load of its target (guarded against
 * loops). Never reloads by itself: a half-filled form stays.
 */
export function startRuntime(router: BrowserRouter) {
  startPrefetch({
    router,
    connection: (navigator as Navigator & { connection?: { saveData?: boolean } }).connection,
  })
  // While developing, Vite's hot updates replace code in place; there are no builds to watch.
  if (import.meta.env.DEV) return
  const { app } = runtimeConfig()
  const watch = startBuildWatch({
    own: { id: app.buildId, timestamp: app.buildTimestamp },
    fetchMeta: (id) => http(buildManifestUrl(`meta/${id}.json`)),
    fetchLatest: (timestamp) => http<BuildInfo>(buildManifestUrl(`latest.json?${timestamp}`)),
    onOutdated: () => document.documentElement.setAttribute('data-outdated', 'true'),
    intervalMs: app.buildCheckIntervalMs,
  })
  onBuildId((id) => watch.sawBuildId(id))

  // Link clicks: caught before the router starts loading chunks this build may no longer have.
  document.addEventListener(
    'click',
    (event) => {
      if (!watch.isOutdated || event.defaultPrevented || event.button !== 0) return
      if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return
      const anchor = event.target instanceof Element ? event.target.closest('a[href]') : null
      if (!(anchor instanceof HTMLAnchorElement) || anchor.hasAttribute('download')) return
      if (anchor.target && anchor.target !== '_self') return
      if (new URL(anchor.href).origin !== window.location.origin) return
      if (reloadGuarded(anchor.href)) event.preventDefault()
    },
    { capture: true },
  )
  // Any other in-app navigation (programmatic, back and forward).
  router.subscribe((state) => {
    const target = state.navigation.location
    if (!watch.isOutdated || state.navigation.state === 'idle' || !target) return
    reloadGuarded(router.createHref(target))
  })
}
