import { useEffect } from 'react'
import { Outlet } from 'react-router-dom'
import { SiteFooter } from './components/site-footer.tsx'
import { SiteHeader } from './components/site-header.tsx'

/** The site chrome around every page: header, the page in `<main>`, footer. */
export function Layout() {
  useEffect(() => {
    // A marker for tests and styles that need to know the page is interactive.
    document.documentElement.dataset.hydrated = 'true'
  }, [])
  return (
    <>
      <SiteHeader />
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <SiteFooter />
    </>
  )
}
