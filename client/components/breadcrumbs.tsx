import { useTranslation } from 'react-i18next'
import { LocalizedLink } from './localized-link.tsx'

type Crumb = { label: string; to?: string }

/** Where the page sits in the site; the last crumb is the current page. */
export function Breadcrumbs({ items }: { items: readonly Crumb[] }) {
  const { t } = useTranslation()
  return (
    <nav className="breadcrumbs" aria-label={t('a11y.breadcrumb')}>
      <ol>
        <li>
          <LocalizedLink to="/">{t('nav.home')}</LocalizedLink>
        </li>
        {items.map((item) => (
          <li key={item.label}>
            {item.to ? (
              <LocalizedLink to={item.to}>{item.label}</LocalizedLink>
            ) : (
              <span aria-current="page">{item.label}</span>
            )}
          </li>
        ))}
      </ol>
    </nav>
  )
}
