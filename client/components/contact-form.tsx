import { useId } from 'react'
import { Trans, useTranslation } from 'react-i18next'
import { SERVICE_INTERESTS, type ServiceInterest } from '#shared/contact.ts'
import { useApp } from '../app-context.tsx'
import { LocalizedLink } from './localized-link.tsx'

type ContactFormProps = {
  /** `full` is the contact page's form (with subject), `short` the home page section's. */
  variant: 'full' | 'short'
  /** Preselected service interest (from a service page's call to action). */
  defaultService?: ServiceInterest
}

/**
 * The contact form as a real `<form method="post">`, so it works without JavaScript.
 * Field names are the API's (DESIGN.md 6).
 */
export function ContactForm({ variant, defaultService }: ContactFormProps) {
  const { t } = useTranslation()
  const { locale } = useApp()
  const id = useId()
  const field = (name: string) => `${id}-${name}`
  return (
    <form className="contact-form" action="/api/contact" method="post">
      <input type="hidden" name="locale" value={locale} />
      <div className="form-grid">
        <div className="field">
          <label htmlFor={field('name')}>{t('form.name')}</label>
          <input
            id={field('name')}
            name="name"
            type="text"
            autoComplete="name"
            required
            minLength={2}
            maxLength={100}
          />
        </div>
        <div className="field">
          <label htmlFor={field('email')}>{t('form.email')}</label>
          <input
            id={field('email')}
            name="email"
            type="email"
            autoComplete="email"
            required
            maxLength={254}
          />
        </div>
        <div className="field">
          <label htmlFor={field('company')}>
            {t('form.company')} <span className="field-optional">({t('form.optional')})</span>
          </label>
          <input
            id={field('company')}
            name="company"
            type="text"
            autoComplete="organization"
            maxLength={150}
          />
        </div>
        <div className="field">
          <label htmlFor={field('service')}>{t('form.service')}</label>
          <select id={field('service')} name="service" required defaultValue={defaultService ?? ''}>
            <option value="" disabled>
              {t('form.servicePlaceholder')}
            </option>
            {SERVICE_INTERESTS[variant].map((value) => (
              <option key={value} value={value}>
                {t(`form.options.${value}`)}
              </option>
            ))}
          </select>
        </div>
        {variant === 'full' ? (
          <div className="field field-wide">
            <label htmlFor={field('subject')}>{t('form.subject')}</label>
            <input
              id={field('subject')}
              name="subject"
              type="text"
              required
              minLength={3}
              maxLength={150}
            />
          </div>
        ) : null}
        <div className="field field-wide">
          <label htmlFor={field('message')}>{t('form.message')}</label>
          <textarea
            id={field('message')}
            name="message"
            rows={6}
            required
            minLength={10}
            maxLength={5000}
          />
        </div>
      </div>
      <p className="form-notice">
        <Trans
          i18nKey="form.privacyNotice"
          components={{ privacyLink: <LocalizedLink to="/privacy-policy" /> }}
        />
      </p>
      <button type="submit" className="button button-primary">
        {t('form.submit')}
      </button>
    </form>
  )
}
