import { useId, useRef, useState, type SyntheticEvent } from 'react'
import { useTranslation } from 'react-i18next'
import { useSearchParams } from 'react-router-dom'
import {
  FIELD_LIMITS,
  HONEYPOT_FIELD,
  SERVICE_INTERESTS,
  type ContactApiAnswer,
  type ContactField,
  type FieldErrors,
  type ServiceInterest,
} from '#shared/contact-fields.ts'
import type { ContactFormId } from '#shared/contact-form.ts'
import { useApp } from '../app-context.tsx'
import { LocalizedLink } from './localized-link.tsx'
import { TaggedText } from './tagged-text.tsx'

type ContactFormProps = {
  /** `full` is the contact page's form (with subject), `short` the home page section's. */
  variant: 'full' | 'short'
  /** Preselected service interest (from a service page's call to action). */
  defaultService?: ServiceInterest
}

type Status = 'idle' | 'sending' | 'success' | 'error' | 'rateLimited'

/**
 * A version 4 UUID. `crypto.randomUUID` exists only in secure contexts (HTTPS, localhost);
 * `getRandomValues` everywhere.
 */
function newSubmissionId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** The schema (zod) loads when a visitor starts on the form, not with the page. */
const loadSchema = () => import('#shared/contact.ts')

const FIELD_ORDER: readonly ContactField[] = [
  'name',
  'email',
  'company',
  'service',
  'subject',
  'message',
]

/**
 * The contact form. A real `<form method="post">`: without JavaScript the browser posts it
 * and the server answers with the page (errors and input kept, or the success message). With
 * JavaScript the same schema checks the fields first, then the form posts JSON; it never
 * retries by itself and cannot be sent twice while sending.
 */
export function ContactForm({ variant, defaultService }: ContactFormProps) {
  const { t } = useTranslation()
  const { locale, formState } = useApp()
  const [searchParams] = useSearchParams()
  const form: ContactFormId = variant === 'full' ? 'contact' : 'home'
  const own = formState?.form === form ? formState : undefined
  const [status, setStatus] = useState<Status>(
    own?.outcome ?? (searchParams.get('sent') === form ? 'success' : 'idle'),
  )
  const [errors, setErrors] = useState<FieldErrors>(own?.errors ?? {})
  const [retryAfterSeconds, setRetryAfterSeconds] = useState(own?.retryAfterSeconds ?? 60)
  const formRef = useRef<HTMLFormElement>(null)
  /** The submission's id, kept while the same message is sent again (see `submissionIdFor`). */
  const submission = useRef<{ content: string; id: string } | null>(null)
  const id = useId()
  const fieldId = (name: string) => `${id}-${name}`
  const errorId = (name: string) => `${id}-${name}-error`
  const values = own?.values ?? {}

  function focusFirstError(found: FieldErrors) {
    const first = FIELD_ORDER.find((field) => found[field])
    if (first) document.getElementById(fieldId(first))?.focus()
  }

  async function handleSubmit(event: SyntheticEvent<HTMLFormElement, SubmitEvent>) {
    event.preventDefault()
    if (status === 'sending') return
    const data = Object.fromEntries(new FormData(event.currentTarget))
    const { ContactMessageSchema, ContactPageMessageSchema, fieldErrors } = await loadSchema()
    const schema = variant === 'full' ? ContactPageMessageSchema : ContactMessageSchema
    const checked = schema.safeParse(data)
    if (!checked.success) {
      const found = fieldErrors(checked.error)
      setErrors(found)
      setStatus('idle')
      focusFirstError(found)
      return
    }
    setErrors({})
    setStatus('sending')
    try {
      const { http } = await import('../runtime/http-client.ts')
      // A POST: the site's client never repeats it by itself. When the visitor sends the same
      // message again (after an error whose request Redis may have stored all the same), the
      // same id makes it the same lead, not a second one.
      const content = JSON.stringify(data)
      if (submission.current?.content !== content) {
        submission.current = { content, id: newSubmissionId() }
      }
      const answer = await http<ContactApiAnswer>('/api/contact', {
        method: 'POST',
        body: { ...data, id: submission.current.id },
      }).catch((error: unknown): ContactApiAnswer => {
        // 4xx/5xx arrive as errors carrying the server's JSON answer.
        const answer = (error as { data?: ContactApiAnswer }).data
        return answer?.status ? answer : { status: 'error' }
      })
      if (answer.status === 'accepted') {
        submission.current = null
        formRef.current?.reset()
        setStatus('success')
      } else if (answer.status === 'invalid') {
        setErrors(answer.errors)
        setStatus('idle')
        focusFirstError(answer.errors)
      } else if (answer.status === 'rateLimited') {
        setRetryAfterSeconds(answer.retryAfterSeconds)
        setStatus('rateLimited')
      } else {
        setStatus('error')
      }
    } catch {
      setStatus('error')
    }
  }

  function fieldProps(name: ContactField) {
    const error = errors[name]
    return {
      id: fieldId(name),
      name,
      defaultValue: values[name],
      'aria-invalid': error ? true : undefined,
      'aria-describedby': error ? errorId(name) : undefined,
    }
  }

  function fieldError(name: ContactField) {
    const error = errors[name]
    if (!error) return null
    const limits = (FIELD_LIMITS as Record<string, { min?: number; max?: number }>)[name]
    return (
      <p id={errorId(name)} className="field-error">
        {t(`form.errors.${error}`, { min: limits?.min, max: limits?.max })}
      </p>
    )
  }

  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60))
  const hasErrors = Object.keys(errors).length > 0

  return (
    <form
      ref={formRef}
      className="contact-form"
      action="/api/contact"
      method="post"
      noValidate
      onSubmit={(event) => void handleSubmit(event)}
      aria-busy={status === 'sending'}
      onFocus={() => void loadSchema()}
    >
      <input type="hidden" name="locale" value={locale} />
      <input type="hidden" name="form" value={form} />
      <div className="form-status" role="status">
        {status === 'success' ? <p className="form-success">{t('form.status.success')}</p> : null}
        {hasErrors ? <p className="form-problem">{t('form.errorSummary')}</p> : null}
      </div>
      <div className="form-status" role="alert">
        {status === 'error' ? <p className="form-problem">{t('form.status.error')}</p> : null}
        {status === 'rateLimited' ? (
          <p className="form-problem">{t('form.status.rateLimited', { count: minutes })}</p>
        ) : null}
      </div>
      <div className="form-grid">
        <div className="field">
          <label htmlFor={fieldId('name')}>{t('form.name')}</label>
          <input
            {...fieldProps('name')}
            type="text"
            autoComplete="name"
            required
            minLength={FIELD_LIMITS.name.min}
            maxLength={FIELD_LIMITS.name.max}
          />
          {fieldError('name')}
        </div>
        <div className="field">
          <label htmlFor={fieldId('email')}>{t('form.email')}</label>
          <input
            {...fieldProps('email')}
            type="email"
            autoComplete="email"
            required
            maxLength={FIELD_LIMITS.email.max}
          />
          {fieldError('email')}
        </div>
        <div className="field">
          <label htmlFor={fieldId('company')}>
            {t('form.company')} <span className="field-optional">({t('form.optional')})</span>
          </label>
          <input
            {...fieldProps('company')}
            type="text"
            autoComplete="organization"
            maxLength={FIELD_LIMITS.company.max}
          />
          {fieldError('company')}
        </div>
        <div className="field">
          <label htmlFor={fieldId('service')}>{t('form.service')}</label>
          <select
            {...fieldProps('service')}
            required
            defaultValue={values.service ?? defaultService ?? ''}
          >
            <option value="" disabled>
              {t('form.servicePlaceholder')}
            </option>
            {SERVICE_INTERESTS[variant].map((value) => (
              <option key={value} value={value}>
                {t(`form.options.${value}`)}
              </option>
            ))}
          </select>
          {fieldError('service')}
        </div>
        {variant === 'full' ? (
          <div className="field field-wide">
            <label htmlFor={fieldId('subject')}>{t('form.subject')}</label>
            <input
              {...fieldProps('subject')}
              type="text"
              required
              minLength={FIELD_LIMITS.subject.min}
              maxLength={FIELD_LIMITS.subject.max}
            />
            {fieldError('subject')}
          </div>
        ) : null}
        <div className="field field-wide">
          <label htmlFor={fieldId('message')}>{t('form.message')}</label>
          <textarea
            {...fieldProps('message')}
            rows={6}
            required
            minLength={FIELD_LIMITS.message.min}
            maxLength={FIELD_LIMITS.message.max}
          />
          {fieldError('message')}
        </div>
        <div className="field-trap">
          <label htmlFor={fieldId(HONEYPOT_FIELD)}>{t('form.honeypot')}</label>
          <input
            id={fieldId(HONEYPOT_FIELD)}
            name={HONEYPOT_FIELD}
            type="text"
            tabIndex={-1}
            autoComplete="off"
          />
        </div>
      </div>
      <p className="form-notice">
        <TaggedText
          text={t('form.privacyNotice')}
          tag="privacyLink"
          render={(content) => <LocalizedLink to="/privacy-policy">{content}</LocalizedLink>}
        />
      </p>
      <button type="submit" className="button button-primary" disabled={status === 'sending'}>
        {status === 'sending' ? t('form.sending') : t('form.submit')}
      </button>
    </form>
  )
}
