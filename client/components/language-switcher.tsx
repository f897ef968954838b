import { useTranslation } from '../texts.tsx'
import { useLocation } from 'react-router-dom'
import { LOCALE_INFO, LOCALES, localeCookie, localizePath } from '#shared/locales.ts'
import { isPagePath } from '#shared/pages.ts'
import { useApp } from '../app-context.tsx'

/**
 * Links to the same page in every locale. Plain anchors, not router links: another locale is
 * another document (its own basename and texts), and the links work without JavaScript. A
 * click also stores the choice in the `i18n_redirected` cookie, so `/` follows it later.
 * Targets come from the route table only: on an unknown path (a crafted `//host`, say) the
 * links lead to each locale's home page, never to anything built from the raw path.
 */
export function LanguageSwitcher({ className }: { className?: string }) {
  const { t } = useTranslation()
  const { locale } = useApp()
  const { pathname } = useLocation()
  const target = isPagePath(pathname) ? pathname : '/'
  return (
    <ul
      className={className ? `lang-switcher ${className}` : 'lang-switcher'}
      aria-label={t('a11y.languageSwitcher')}
    >
      {LOCALES.map((code) => (
        <li key={code}>
          <a
            href={localizePath(code, target)}
            hrefLang={code}
            lang={code}
            aria-current={code === locale ? 'true' : undefined}
            onClick={() => {
              // An explicit choice, and only that, is remembered (docs/languages.md#languages).
              document.cookie = localeCookie(code, window.location.protocol === 'https:')
            }}
          >
            {LOCALE_INFO[code].name}
          </a>
        </li>
      ))}
    </ul>
  )
}
