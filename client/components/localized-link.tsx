import { Link, NavLink, type LinkProps, type NavLinkProps } from 'react-router-dom'

const reducedMotion =
  typeof window === 'undefined' ? undefined : window.matchMedia('(prefers-reduced-motion: reduce)')

/**
 * A view transition for the navigation where the browser has them and motion is welcome, though
 * without a GPU it delays the new page past 100 ms
 * (docs/decisions/view-transitions-kept-without-a-gpu.md).
 */
const viewTransition = () => reducedMotion?.matches === false

/**
 * Internal links take unprefixed site paths (`/about`); the router's basename (`/de`, `/pl`)
 * adds the locale prefix, so a page never builds localized URLs itself. Navigations cross-fade
 * (React Router's `viewTransition`) unless the visitor prefers reduced motion.
 */
export function LocalizedLink(props: LinkProps & { to: string }) {
  return <Link viewTransition={viewTransition()} {...props} />
}

export function LocalizedNavLink(props: NavLinkProps & { to: string }) {
  return <NavLink viewTransition={viewTransition()} {...props} />
}
