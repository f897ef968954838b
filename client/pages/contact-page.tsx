import { useTranslation } from '../texts.tsx'
import { useSearchParams } from 'react-router-dom'
import { businessHours } from '#shared/business-hours.ts'
import { COMPANY, phoneHref } from '#shared/company.ts'
import { LOCALE_INFO } from '#shared/locales.ts'
import { useApp } from '../app-context.tsx'
import { prefilledValues } from '#shared/contact-fields.ts'
import { ContactForm } from '../components/contact-form.tsx'
import { Icon } from '../components/icons.tsx'
import { PageMeta } from '../components/page-meta.tsx'
import { CompanyAddress } from '../components/company-address.tsx'
import { PageHero } from '../components/page-hero.tsx'
import type { ScreenProps } from '../routes.tsx'
import '../styles/pages/contact.css'

/** `/contact`: the form (with a service preselected from the query), hours and details. */
export function ContactPage({ page }: ScreenProps) {
  const { t } = useTranslation('contact')
  const [searchParams] = useSearchParams()
  const { locale } = useApp()
  return (
    <>
      <PageMeta page={page} />
      <PageHero page={page} id="contact-page" lead={t('hero.subtitle')} />

      <div className="section">
        <div className="container contact-page-grid">
          <section className="contact-form-column" aria-labelledby="form-title">
            <h2 id="form-title">{t('form.heading')}</h2>
            <p className="muted">{t('form.intro')}</p>
            <ContactForm form="contact" initialValues={prefilledValues('contact', searchParams)} />
          </section>

          <aside className="contact-aside">
            <section className="info-card" aria-labelledby="hours-title">
              <h2 id="hours-title">{t('hours.heading')}</h2>
              <dl className="hours">
                <dt>{t('hours.weekdays')}</dt>
                <dd>{t('hours.weekdaysTime', businessHours(LOCALE_INFO[locale].iso))}</dd>
                <dt>{t('hours.saturday')}</dt>
                <dd>{t('hours.saturdayTime')}</dd>
                <dt>{t('hours.sunday')}</dt>
                <dd>{t('hours.sundayTime')}</dd>
              </dl>
              <p className="hours-support">
                <strong>{t('hours.support')}</strong> {t('hours.supportText')}
              </p>
            </section>

            <section className="info-card" aria-labelledby="details-title">
              <h2 id="details-title">{t('details.heading')}</h2>
              <ul className="contact-details">
                <li>
                  <Icon name="mail" />
                  <div>
                    <span className="detail-label">{t('details.email')}</span>{' '}
                    <a href={`mailto:${COMPANY.email}`}>{COMPANY.email}</a>
                  </div>
                </li>
                <li>
                  <Icon name="phone" />
                  <div>
                    <span className="detail-label">{t('details.phone')}</span>{' '}
                    <a href={phoneHref(COMPANY.phone)}>{COMPANY.phone}</a>
                  </div>
                </li>
                <li>
                  <Icon name="mapPin" />
                  {/* A block, not a span: <address> is flow content (W3C Nu checker). */}
                  <div>
                    <span className="detail-label">{t('details.address')}</span>
                    <CompanyAddress />
                  </div>
                </li>
              </ul>
            </section>

            <section className="info-card" aria-labelledby="next-title">
              <h2 id="next-title">{t('next.heading')}</h2>
              <ol className="next-steps">
                {t('next.steps', { returnObjects: true }).map((step) => (
                  <li key={step.title}>
                    <strong>{step.title}</strong>
                    <p>{step.text}</p>
                  </li>
                ))}
              </ol>
            </section>
          </aside>
        </div>
      </div>
    </>
  )
}
