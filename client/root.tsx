import { useEffect, type ReactNode } from 'react'
import { Outlet } from 'react-router-dom'
import { ErrorView } from './components/error-view.tsx'
import { NavigationProgress } from './components/navigation-progress.tsx'
import { SiteFooter } from './components/site-footer.tsx'
import { SiteHeader } from './components/site-header.tsx'

/** The site chrome around every page: header, the page in `<main>`, footer. */
function Chrome({ children }: { children: ReactNode }) {
  useEffect(() => {
    // A marker for tests and styles that need to know the page is interactive, and for the
    // start (client/hydrate.tsx), which loads the runtime only then.
    document.documentElement.dataset.hydrated = 'true'
  }, [])
  return (
    <>
      <NavigationProgress />
      <SiteHeader />
      <main id="main" tabIndex={-1}>
        {children}
      </main>
      <SiteFooter />
    </>
  )
}

export function Layout() {
  return (
    <Chrome>
      <Outlet />
    </Chrome>
  )
}

/** Errors the page boundary cannot catch (a path no route matches): the same chrome. */
export function RootErrorBoundary() {
  return (
    <Chrome>
      <ErrorView />
    </Chrome>
  )
}
