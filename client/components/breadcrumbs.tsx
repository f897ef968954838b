import { useTranslation } from '../texts.tsx'
import type { Page } from '#shared/pages.ts'
import { breadcrumbTrail, pageLabel } from '#shared/page-texts.ts'
import { useTranslate } from '../use-page-texts.ts'
import { LocalizedLink } from './localized-link.tsx'

/**
 * Where the page sits in the site, from the home page to the page itself (the current crumb).
 * The trail is `breadcrumbTrail`'s, which the structured data of the page lists too.
 */
export function Breadcrumbs({ page }: { page: Page }) {
  const { t } = useTranslation()
  const translate = useTranslate()
  const trail = breadcrumbTrail(page)
  return (
    <nav className="breadcrumbs" aria-label={t('a11y.breadcrumb')}>
      <ol>
        {trail.map((crumb) => (
          <li key={crumb.id}>
            {crumb === page ? (
              <span aria-current="page">{pageLabel(crumb, translate)}</span>
            ) : (
              <LocalizedLink to={crumb.path}>{pageLabel(crumb, translate)}</LocalizedLink>
            )}
          </li>
        ))}
      </ol>
    </nav>
  )
}
