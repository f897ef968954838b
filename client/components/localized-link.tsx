import { Link, NavLink, type LinkProps, type NavLinkProps } from 'react-router-dom'

/**
 * Internal links take unprefixed site paths (`/about`); the router's basename (`/de`, `/pl`)
 * adds the locale prefix, so a page never builds localized URLs itself.
 */
export function LocalizedLink(props: LinkProps & { to: string }) {
  return <Link {...props} />
}

export function LocalizedNavLink(props: NavLinkProps & { to: string }) {
  return <NavLink {...props} />
}
