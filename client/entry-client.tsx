// First: React Fast Refresh's runtime while developing (an empty module in production builds).
import '@vitejs/plugin-react/preamble'
import { hydrateRoot } from 'react-dom/client'
import { I18nextProvider } from 'react-i18next'
import {
  createBrowserRouter,
  matchRoutes,
  RouterProvider,
  type HydrationState,
  type RouteObject,
} from 'react-router-dom'
import { localeBasename } from '#shared/locales.ts'
import { APP_DATA_ID, type AppData } from './app-data.ts'
import { Document } from './document.tsx'
import { createClientI18n, loadNamespaces } from './i18n.ts'
import { createRoutes } from './routes.tsx'
import './styles/global.css'

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

async function start() {
  const json = document.getElementById(APP_DATA_ID)?.textContent
  if (!json) throw new Error(`#${APP_DATA_ID} is missing`)
  const data = JSON.parse(json) as AppData
  // The router reads (and deserializes route errors from) this before it is created.
  window.__staticRouterHydrationData = data.router

  const i18n = createClientI18n(data.locale, data.resources)
  const routes = createRoutes({ loadNamespaces: (namespaces) => loadNamespaces(i18n, namespaces) })
  const basename = localeBasename(data.locale) || '/'
  await resolveLazyMatches(routes, basename)
  const router = createBrowserRouter(routes, { basename })

  hydrateRoot(
    document,
    <I18nextProvider i18n={i18n}>
      <Document data={data} json={json}>
        <RouterProvider router={router} />
      </Document>
    </I18nextProvider>,
  )
  // Build detection and friends load after the page, not with it.
  const { startRuntime } = await import('./runtime/index.ts')
  startRuntime(router)
}

// A failed start leaves the server-rendered page working; the reason goes to the console.
start().catch((error: unknown) => {
  console.error('The app could not start; the page keeps working without it.', error)
})
