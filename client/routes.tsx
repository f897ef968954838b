import type { ComponentType } from 'react'
import { data, type RouteObject } from 'react-router-dom'
import type { FileNamespace } from '#shared/texts.ts'
import { PAGES, screenSource, type Page, type Screen } from '#shared/pages.ts'
import { ErrorView } from './components/error-view.tsx'
import { ChunkLoadError } from './runtime/chunk-error.ts'
import { Layout, RootErrorBoundary } from './root.tsx'

/** What a page route carries for the server (texts to embed, chunk to preload). */
export type PageHandle = {
  /** i18next namespaces the page reads besides those every page has. */
  namespaces: readonly FileNamespace[]
  /** The page module's source path, the key of its chunk in Vite's manifest. */
  source: string
  /**
   * Loads the page's chunk and texts once (the route's `lazy` uses the same promise): called
   * ahead of a click when a visitor shows the intent to follow a link (client/runtime/prefetch.ts).
   */
  preload: () => Promise<void>
}

/** A page module's component: it renders the page entry it is given. */
export type ScreenProps<P extends Page = Page> = { page: P }
type ScreenModule = Record<string, ComponentType<ScreenProps> | undefined>

/** Every page module, loaded lazily: `client/pages/<screen>-page.tsx` exports `<Screen>Page`. */
const SCREEN_MODULES = import.meta.glob<ScreenModule>('./pages/*-page.tsx')

/** `service` → `ServicePage`. */
function componentName(screen: Screen): string {
  return `${screen.charAt(0).toUpperCase()}${screen.slice(1)}Page`
}

async function loadScreen(page: Page): Promise<ComponentType> {
  const load = SCREEN_MODULES[`./pages/${page.screen}-page.tsx`]
  const Screen = (await load?.())?.[componentName(page.screen)]
  if (!Screen)
    throw new Error(`${screenSource(page.screen)} must export ${componentName(page.screen)}`)
  return function PageScreen() {
    return <Screen page={page} />
  }
}

const ROOT_ROUTE_ID = 'root'
/** The route whose error boundary renders 404 and 500 pages inside the site chrome. */
export const BOUNDARY_ROUTE_ID = 'boundary'
const NOT_FOUND_ROUTE_ID = 'not-found'

type RouteOptions = {
  /** Makes a page's namespaces available before it renders (the server has them all). */
  loadNamespaces: (namespaces: readonly FileNamespace[]) => Promise<void>
}

function notFoundLoader(): never {
  // `statusText` must be explicit, or the router reports "Internal Server Error".
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- the router's 404 protocol
  throw data(null, { status: 404, statusText: 'Not Found' })
}

function NoPage() {
  return null
}

/**
 * The route objects of the page table, one router per locale (basename `''`, `/de`, `/pl`):
 * switching language is a full page load (docs/decisions/one-router-per-locale.md).
 */
export function createRoutes({ loadNamespaces }: RouteOptions): RouteObject[] {
  const pageRoutes = PAGES.map((page): RouteObject => {
    let loading: Promise<{ Component: ComponentType }> | undefined
    const lazy = () => {
      loading ??= Promise.all([loadScreen(page), loadNamespaces(page.namespaces)]).then(
        ([Component]) => ({ Component }),
        (error: unknown) => {
          // A later attempt may succeed (the connection came back).
          loading = undefined
          // Usually a deployment replaced this chunk: the error view reloads (guarded).
          throw new ChunkLoadError(`Page ${page.id} could not be loaded`, { cause: error })
        },
      )
      return loading
    }
    const handle: PageHandle = {
      namespaces: page.namespaces,
      source: screenSource(page.screen),
      preload: () => lazy().then(() => undefined),
    }
    return page.path === '/'
      ? { id: page.id, index: true, handle, lazy }
      : { id: page.id, path: page.path.slice(1), handle, lazy }
  })
  return [
    {
      id: ROOT_ROUTE_ID,
      Component: Layout,
      ErrorBoundary: RootErrorBoundary,
      children: [
        {
          id: BOUNDARY_ROUTE_ID,
          ErrorBoundary: ErrorView,
          children: [
            ...pageRoutes,
            { id: NOT_FOUND_ROUTE_ID, path: '*', loader: notFoundLoader, Component: NoPage },
          ],
        },
      ],
    },
  ]
}
