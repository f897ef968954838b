// The app's start in the browser, loaded by entry-client.tsx once the server's HTML is painted.
import { startTransition } from 'react'
import { hydrateRoot } from 'react-dom/client'
import {
  createBrowserRouter,
  matchRoutes,
  RouterProvider,
  type HydrationState,
  type RouteObject,
} from 'react-router-dom'
import { localeBasename } from '#shared/locales.ts'
import { embeddedData } from './embedded-data.ts'
import { Document } from './document.tsx'
import { createClientI18n, loadNamespaces, textBundles } from './browser-i18n.ts'
import { createRoutes } from './routes.tsx'
import { runtimeConfig } from './runtime/runtime-config.ts'
import { I18nProvider } from './texts.tsx'

declare global {
  interface Window {
    __staticRouterHydrationData?: HydrationState
  }
}

/**
 * Resolve the lazy routes of the current URL before hydrating: with a lazy match left, the
 * router starts uninitialized and React would replace the server's markup with a fallback.
 */
async function resolveLazyMatches(routes: RouteObject[], basename: string) {
  const matches = matchRoutes(routes, window.location, basename) ?? []
  await Promise.all(
    matches.map(async ({ route }) => {
      if (typeof route.lazy !== 'function') return
      const properties = await route.lazy()
      Object.assign(route, properties, { lazy: undefined })
    }),
  )
}

/** Hydrate the server's document and start the client runtime. */
export async function start() {
  const { data, json } = embeddedData()
  // The router reads (and deserializes route errors from) this before it is created.
  window.__staticRouterHydrationData = data.router
  // A plain form post is answered at /api/contact with its form's page: the router and the
  // address bar take that page's path (a reload then shows the page, not the post again).
  if (data.formState && data.formState.path !== window.location.pathname) {
    history.replaceState(history.state, '', data.formState.path)
  }

  const i18n = createClientI18n(data.locale, data.resources)
  const routes = createRoutes({ loadNamespaces: (namespaces) => loadNamespaces(i18n, namespaces) })
  const basename = localeBasename(data.locale) || '/'
  await resolveLazyMatches(routes, basename)
  const router = createBrowserRouter(routes, { basename })

  // As a transition, hydration yields to the browser every few milliseconds instead of
  // holding the main thread for one long task: input stays responsive on a slow phone.
  startTransition(() => {
    hydrateRoot(
      document,
      <I18nProvider i18n={i18n}>
        <Document data={data} json={json} runtime={runtimeConfig()}>
          <RouterProvider router={router} />
        </Document>
      </I18nProvider>,
    )
  })
  // Build detection and friends load once the page is hydrated, not with it; so does the map of
  // the texts a navigation may need, before the visitor follows a link. The first view fetches
  // only what hydration needs (`npm run first-view`).
  await hydrated()
  void textBundles()
  const { startRuntime } = await import('./runtime/index.ts')
  startRuntime(router)
}

/** Resolves once React has hydrated the document: the layout marks `<html>` (client/root.tsx). */
function hydrated(): Promise<void> {
  const html = document.documentElement
  return new Promise((resolve) => {
    if (html.dataset.hydrated === 'true') {
      resolve()
      return
    }
    const observer = new MutationObserver(() => {
      if (html.dataset.hydrated !== 'true') return
      observer.disconnect()
      resolve()
    })
    observer.observe(html, { attributes: true, attributeFilter: ['data-hydrated'] })
  })
}
