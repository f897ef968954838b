import type { ComponentType } from 'react'
import { data, type RouteObject } from 'react-router-dom'
import type { Namespace } from '#shared/i18n.ts'
import { PAGES, type PageId, type ServiceSlug } from '#shared/routes.ts'
import type { TeamSlug } from '#shared/team.ts'
import { SERVICE_NAMESPACES } from '#shared/services.ts'
import { ErrorView } from './components/error-view.tsx'
import { ChunkLoadError } from './runtime/chunk-error.ts'
import { Layout, RootErrorBoundary } from './root.tsx'

/** What a page route carries for the server (texts to embed, chunk to preload) and the client. */
export type PageHandle = {
  /** i18next namespaces the page reads besides `common`. */
  namespaces: readonly Namespace[]
  /** The page module's source path, the key of its chunk in Vite's manifest. */
  source: string
  /** Service pages share one module; this says which service the route shows. */
  service?: ServiceSlug
  /** The two profile pages share one module; this says whose profile the route shows. */
  member?: TeamSlug
}

type PageModule = PageHandle & { load: () => Promise<ComponentType> }

function teamPage(slug: TeamSlug): PageModule {
  return {
    source: 'client/pages/team.tsx',
    namespaces: ['team', 'about'],
    member: slug,
    load: () => import('./pages/team.tsx').then((module) => module.TeamPage),
  }
}

function servicePage(slug: ServiceSlug): PageModule {
  return {
    source: 'client/pages/service.tsx',
    namespaces: ['services', SERVICE_NAMESPACES[slug]],
    service: slug,
    load: () => import('./pages/service.tsx').then((module) => module.ServicePage),
  }
}

/** The page module of every route of the route table. */
const PAGE_MODULES: Record<PageId, PageModule> = {
  home: {
    source: 'client/pages/home.tsx',
    namespaces: ['home'],
    load: () => import('./pages/home.tsx').then((module) => module.HomePage),
  },
  about: {
    source: 'client/pages/about.tsx',
    namespaces: ['about', 'team'],
    load: () => import('./pages/about.tsx').then((module) => module.AboutPage),
  },
  'team-jonas-weber': teamPage('jonas-weber'),
  'team-katarzyna-nowak': teamPage('katarzyna-nowak'),
  contact: {
    source: 'client/pages/contact.tsx',
    namespaces: ['contact'],
    load: () => import('./pages/contact.tsx').then((module) => module.ContactPage),
  },
  imprint: {
    source: 'client/pages/imprint.tsx',
    namespaces: ['imprint'],
    load: () => import('./pages/imprint.tsx').then((module) => module.ImprintPage),
  },
  'terms-of-service': {
    source: 'client/pages/terms.tsx',
    namespaces: ['terms'],
    load: () => import('./pages/terms.tsx').then((module) => module.TermsPage),
  },
  'privacy-policy': {
    source: 'client/pages/privacy.tsx',
    namespaces: ['privacy'],
    load: () => import('./pages/privacy.tsx').then((module) => module.PrivacyPage),
  },
  'cookie-policy': {
    source: 'client/pages/cookies.tsx',
    namespaces: ['cookies'],
    load: () => import('./pages/cookies.tsx').then((module) => module.CookiesPage),
  },
  services: {
    source: 'client/pages/services.tsx',
    namespaces: ['services'],
    load: () => import('./pages/services.tsx').then((module) => module.ServicesPage),
  },
  'service-cloud-infrastructure': servicePage('cloud-infrastructure'),
  'service-business-modernization': servicePage('business-modernization'),
  'service-digital-presence': servicePage('digital-presence'),
  'service-api-integration': servicePage('api-integration'),
  'service-managed-it': servicePage('managed-it'),
  'service-security-compliance': servicePage('security-compliance'),
}

export const ROOT_ROUTE_ID = 'root'
/** The route whose error boundary renders 404 and 500 pages inside the site chrome. */
export const BOUNDARY_ROUTE_ID = 'boundary'
export const NOT_FOUND_ROUTE_ID = 'not-found'

type RouteOptions = {
  /** Makes a page's namespaces available before it renders (the server has them all). */
  loadNamespaces: (namespaces: readonly Namespace[]) => Promise<void>
}

function notFoundLoader(): never {
  // `statusText` must be explicit, or the router reports "Internal Server Error".
  // eslint-disable-next-line @typescript-eslint/only-throw-error -- the router's 404 protocol
  throw data(null, { status: 404, statusText: 'Not Found' })
}

function NoPage() {
  return null
}

export function createRoutes({ loadNamespaces }: RouteOptions): RouteObject[] {
  const pageRoutes = PAGES.map((page): RouteObject => {
    const { load, ...handle } = PAGE_MODULES[page.id]
    const lazy = async () => {
      try {
        const [Component] = await Promise.all([load(), loadNamespaces(handle.namespaces)])
        return { Component }
      } catch (error) {
        // Usually a deployment replaced this chunk: the error view reloads (guarded).
        throw new ChunkLoadError(`Page ${page.id} could not be loaded`, { cause: error })
      }
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
