import { useTranslation } from '../texts.tsx'
import { COMPANY, phoneHref } from '#shared/company.ts'
import { SERVICES, servicePath } from '#shared/services.ts'
import { useApp } from '../app-context.tsx'
import { Icon, LogoMark } from './icons.tsx'
import { LanguageSwitcher } from './language-switcher.tsx'
import { LocalizedLink } from './localized-link.tsx'
import { CompanyAddress } from './company-address.tsx'

export function SiteFooter() {
  const { t } = useTranslation(['common', 'service-cards'])
  const { year } = useApp()
  return (
    <footer className="site-footer">
      <div className="container footer-grid">
        <div className="footer-brand">
          <LocalizedLink to="/" className="brand brand-inverse" aria-label={t('site.homeLink')}>
            <LogoMark className="brand-mark" />
            <span className="brand-name">{t('site.name')}</span>
          </LocalizedLink>
          <p>{t('footer.about')}</p>
        </div>
        <nav className="footer-col" aria-labelledby="footer-company">
          <h2 id="footer-company" className="footer-heading">
            {t('footer.companyHeading')}
          </h2>
          <ul>
            <li>
              <LocalizedLink to="/">{t('nav.home')}</LocalizedLink>
            </li>
            <li>
              <LocalizedLink to="/services">{t('nav.servicesOverview')}</LocalizedLink>
            </li>
            {SERVICES.map(({ slug }) => (
              <li key={slug}>
                <LocalizedLink to={servicePath(slug)}>
                  {t(`service-cards:${slug}.name`)}
                </LocalizedLink>
              </li>
            ))}
            <li>
              <LocalizedLink to="/about">{t('nav.about')}</LocalizedLink>
            </li>
            <li>
              <LocalizedLink to="/contact">{t('nav.contact')}</LocalizedLink>
            </li>
          </ul>
        </nav>
        <nav className="footer-col" aria-labelledby="footer-legal">
          <h2 id="footer-legal" className="footer-heading">
            {t('footer.legalHeading')}
          </h2>
          <ul>
            <li>
              <LocalizedLink to="/privacy-policy">{t('footer.privacy')}</LocalizedLink>
            </li>
            <li>
              <LocalizedLink to="/terms-of-service">{t('footer.terms')}</LocalizedLink>
            </li>
            <li>
              <LocalizedLink to="/cookie-policy">{t('footer.cookies')}</LocalizedLink>
            </li>
            <li>
              <LocalizedLink to="/imprint">{t('footer.imprint')}</LocalizedLink>
            </li>
            <li>
              <LocalizedLink to="/accessibility">{t('footer.accessibility')}</LocalizedLink>
            </li>
          </ul>
        </nav>
        <div className="footer-col">
          <h2 className="footer-heading">{t('footer.contactHeading')}</h2>
          <ul className="footer-contact">
            <li>
              <Icon name="mail" />
              <a href={`mailto:${COMPANY.email}`}>
                <span className="visually-hidden">{t('footer.email')}: </span>
                {COMPANY.email}
              </a>
            </li>
            <li>
              <Icon name="phone" />
              <a href={phoneHref(COMPANY.phone)}>
                <span className="visually-hidden">{t('footer.phone')}: </span>
                {COMPANY.phone}
              </a>
            </li>
            <li>
              <Icon name="mapPin" />
              <CompanyAddress />
            </li>
          </ul>
        </div>
      </div>
      <div className="container footer-bottom">
        <p>{t('footer.rights', { year, company: COMPANY.legalName })}</p>
        <LanguageSwitcher className="footer-langs" />
      </div>
    </footer>
  )
}
