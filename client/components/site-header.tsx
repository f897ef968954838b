import { useEffect, useRef, useState } from 'react'
import { useTranslation } from '../texts.tsx'
import { useLocation } from 'react-router-dom'
import { SERVICES, servicePath } from '#shared/services.ts'
import { Icon, LogoMark } from './icons.tsx'
import { LanguageSwitcher } from './language-switcher.tsx'
import { LocalizedLink, LocalizedNavLink } from './localized-link.tsx'

const NAV_ID = 'site-nav'
const SUBMENU_ID = 'services-submenu'

/**
 * Header with the main menu. On narrow screens the menu is a disclosure behind a button; the
 * services submenu is a disclosure next to the Services link. Escape closes the innermost open
 * part and returns focus to its button; navigating or clicking elsewhere closes both.
 */
export function SiteHeader() {
  const { t } = useTranslation(['common', 'service-cards'])
  const { pathname } = useLocation()
  const [isMenuOpen, setIsMenuOpen] = useState(false)
  const [isSubmenuOpen, setIsSubmenuOpen] = useState(false)
  const headerRef = useRef<HTMLElement>(null)
  const menuButtonRef = useRef<HTMLButtonElement>(null)
  const submenuButtonRef = useRef<HTMLButtonElement>(null)

  const [menuPath, setMenuPath] = useState(pathname)

  // A navigation closes the menus (state adjusted while rendering, not in an effect).
  if (menuPath !== pathname) {
    setMenuPath(pathname)
    setIsMenuOpen(false)
    setIsSubmenuOpen(false)
  }

  useEffect(() => {
    if (!isMenuOpen && !isSubmenuOpen) return
    function handlePointerDown(event: PointerEvent) {
      if (!headerRef.current?.contains(event.target as Node)) {
        setIsMenuOpen(false)
        setIsSubmenuOpen(false)
      }
    }
    function handleKeyDown(event: KeyboardEvent) {
      if (event.key !== 'Escape') return
      if (isSubmenuOpen) {
        setIsSubmenuOpen(false)
        submenuButtonRef.current?.focus()
      } else {
        setIsMenuOpen(false)
        menuButtonRef.current?.focus()
      }
    }
    document.addEventListener('pointerdown', handlePointerDown)
    document.addEventListener('keydown', handleKeyDown)
    return () => {
      document.removeEventListener('pointerdown', handlePointerDown)
      document.removeEventListener('keydown', handleKeyDown)
    }
  }, [isMenuOpen, isSubmenuOpen])

  return (
    <header className="site-header" ref={headerRef}>
      <a className="skip-link" href="#main">
        {t('a11y.skipToContent')}
      </a>
      <div className="container header-bar">
        <LocalizedLink to="/" className="brand" aria-label={t('site.homeLink')}>
          <LogoMark className="brand-mark" />
          <span className="brand-name">{t('site.name')}</span>
        </LocalizedLink>{' '}
        <button
          ref={menuButtonRef}
          type="button"
          className="menu-toggle"
          aria-expanded={isMenuOpen}
          aria-controls={NAV_ID}
          onClick={() => setIsMenuOpen((open) => !open)}
        >
          {isMenuOpen ? <Icon name="close" /> : <Icon name="menu" />}
          <span className="visually-hidden">
            {isMenuOpen ? t('a11y.closeMenu') : t('a11y.openMenu')}
          </span>
        </button>
        <nav
          id={NAV_ID}
          className="site-nav"
          aria-label={t('a11y.mainNavigation')}
          data-open={isMenuOpen}
        >
          <ul className="nav-list">
            <li>
              <LocalizedNavLink to="/" end className="nav-link">
                {t('nav.home')}
              </LocalizedNavLink>
            </li>
            <li className="has-submenu" data-open={isSubmenuOpen}>
              <div className="submenu-row">
                <LocalizedNavLink to="/services" className="nav-link">
                  {t('nav.services')}
                </LocalizedNavLink>{' '}
                <button
                  ref={submenuButtonRef}
                  type="button"
                  className="submenu-toggle"
                  aria-expanded={isSubmenuOpen}
                  aria-controls={SUBMENU_ID}
                  onClick={() => setIsSubmenuOpen((open) => !open)}
                >
                  <Icon name="chevronDown" />
                  <span className="visually-hidden">{t('nav.servicesMenu')}</span>
                </button>
              </div>
              <ul id={SUBMENU_ID} className="submenu">
                {SERVICES.map(({ slug }) => (
                  <li key={slug}>
                    <LocalizedNavLink to={servicePath(slug)} className="submenu-link">
                      {t(`service-cards:${slug}.name`)}
                    </LocalizedNavLink>
                  </li>
                ))}
                <li className="submenu-overview">
                  <LocalizedNavLink to="/services" end className="submenu-link">
                    {t('nav.servicesOverview')}
                  </LocalizedNavLink>
                </li>
              </ul>
            </li>
            <li>
              <LocalizedNavLink to="/about" className="nav-link">
                {t('nav.about')}
              </LocalizedNavLink>
            </li>
            <li>
              <LocalizedNavLink to="/contact" className="nav-link nav-cta">
                {t('nav.contact')}
              </LocalizedNavLink>
            </li>
          </ul>
          <LanguageSwitcher className="header-langs" />
        </nav>
      </div>
    </header>
  )
}
