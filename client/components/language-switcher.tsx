import { useTranslation } from 'react-i18next'
import { useLocation } from 'react-router-dom'
import { LOCALE_INFO, LOCALES, localizePath } from '#shared/locales.ts'
import { useApp } from '../app-context.tsx'

/**
 * Links to the same page in every locale. Plain anchors, not router links: another locale is
 * another document (its own basename and texts), and the links work without JavaScript.
 */
export function LanguageSwitcher({ className }: { className?: string }) {
  const { t } = useTranslation()
  const { locale } = useApp()
  const { pathname } = useLocation()
  return (
    <ul
      className={className ? `lang-switcher ${className}` : 'lang-switcher'}
      aria-label={t('a11y.languageSwitcher')}
    >
      {LOCALES.map((code) => (
        <li key={code}>
          <a
            href={localizePath(code, pathname)}
            hrefLang={code}
            lang={code}
            aria-current={code === locale ? 'true' : undefined}
          >
            {LOCALE_INFO[code].name}
          </a>
        </li>
      ))}
    </ul>
  )
}
