import { useId, useRef, useState, type SyntheticEvent } from 'react'
import { useTranslation } from '../texts.tsx'
import { useSearchParams } from 'react-router-dom'
import {
  fieldOptions,
  formFields,
  HONEYPOT_FIELD,
  SENT_PARAMETER,
  TOKEN_FIELD,
  VIA_FIELD,
  viaPage,
  type ContactField,
  type ContactFieldName,
  type ContactFormId,
  type FieldErrorCode,
  type FieldErrors,
} from '#shared/contact-fields.ts'
import { COMPANY } from '#shared/company.ts'
import { useApp } from '../app-context.tsx'
import type { FormSession } from './contact-requests.ts'
import { LocalizedLink } from './localized-link.tsx'
import { TaggedText } from './tagged-text.tsx'

type ContactFormProps = {
  /** Which form: the contact page's (`contact`) or the home page section's (`home`). */
  form: ContactFormId
  /** Values to start with (a service page's call to action preselects the interest). */
  initialValues?: ContactFormValues
}

type ContactFormValues = Partial<Record<ContactFieldName, string>>

/** Not sent, and what to do about it (`form.status.<notice>`); `rateLimited` says when. */
type Notice = 'error' | 'foreign' | 'expired' | 'proofFailed'

type Status = 'idle' | 'verifying' | 'sending' | 'success' | 'rateLimited' | Notice

/** The schema (zod) loads when a visitor starts on the form, not with the page. */
const loadSchema = () => import('#shared/contact-schema.ts')

/** The outcomes the form's alert announces: the message was not sent. */
const PROBLEMS = ['error', 'foreign', 'expired', 'proofFailed', 'rateLimited'] as const

function isProblem(status: Status): status is (typeof PROBLEMS)[number] {
  return (PROBLEMS as readonly Status[]).includes(status)
}

/** The form's requests (token, message) load when a visitor starts on the form. */
const loadRequests = () => import('./contact-requests.ts')

/**
 * The contact form. A real `<form method="post">`: without JavaScript the browser posts it
 * and the server answers with the page (errors and input kept, or the success message). With
 * JavaScript the same schema checks the fields first, then the form posts JSON; it never
 * retries by itself and cannot be sent twice while sending. Its token comes with a proof of
 * work, solved in the background from the first focus (docs/contact.md#spam-defence); a visitor who
 * sends before it is done waits for it, told so in the form's live region.
 */
export function ContactForm({ form, initialValues = {} }: ContactFormProps) {
  const { t } = useTranslation()
  const { locale, formState, formToken } = useApp()
  const [searchParams] = useSearchParams()
  const fields = formFields(form)
  const own = formState?.form === form ? formState : undefined
  const [status, setStatus] = useState<Status>(
    own?.outcome ?? (searchParams.get(SENT_PARAMETER) === form ? 'success' : 'idle'),
  )
  const [errors, setErrors] = useState<FieldErrors>(own?.errors ?? {})
  const [retryAfterSeconds, setRetryAfterSeconds] = useState(own?.retryAfterSeconds ?? 60)
  // The page's token (what a post without JavaScript sends), until the visitor's own arrives.
  const [token, setToken] = useState(formToken?.form === form ? formToken.token : '')
  /** The form's dealings with the server, from when the visitor starts on it. */
  const session = useRef<Promise<FormSession> | null>(null)
  const formRef = useRef<HTMLFormElement>(null)
  const id = useId()
  const fieldId = (name: string) => `${id}-${name}`
  // A form shown again after a plain post keeps exactly what the visitor sent.
  const values = own?.values ?? initialValues
  // The service page whose call to action opened the form: its leads count under it.
  const via = own ? own.via : viaPage(form, initialValues)

  function formSession(): Promise<FormSession> {
    session.current ??= loadRequests().then(({ FormSession }) => new FormSession(form, locale))
    return session.current
  }

  /** Asks once for a token of the visitor's own; the answer replaces the page's. */
  function requestToken() {
    formSession()
      .then((started) => started.token())
      .then((own) => own && setToken(own))
      // Not even the module came (offline): a new try when sending.
      .catch(() => {
        session.current = null
      })
  }

  /** Shows what the schema or the server found, and takes the visitor to the first field. */
  function showErrors(found: FieldErrors) {
    setErrors(found)
    setStatus('idle')
    const first = fields.find((field) => found[field.name])
    if (first) document.getElementById(fieldId(first.name))?.focus()
  }

  async function handleSubmit(event: SyntheticEvent<HTMLFormElement, SubmitEvent>) {
    event.preventDefault()
    if (status === 'sending' || status === 'verifying') return
    // The message's fields; the token is chosen below and is not part of the message.
    const data = Object.fromEntries(
      [...new FormData(event.currentTarget)].filter(([name]) => name !== TOKEN_FIELD),
    )
    const { parseContact } = await loadSchema()
    const checked = parseContact(data)
    if (!checked.success) {
      showErrors(checked.errors)
      return
    }
    setErrors({})
    setStatus('sending')
    try {
      const answer = await (await formSession()).send(data, () => setStatus('verifying'))
      if (answer.status === 'accepted') {
        formRef.current?.reset()
        setStatus('success')
      } else if (answer.status === 'invalid') {
        showErrors(answer.errors)
      } else if (answer.status === 'rateLimited') {
        setRetryAfterSeconds(answer.retryAfterSeconds)
        setStatus('rateLimited')
      } else if (answer.status === 'foreign' || answer.status === 'proofFailed') {
        setStatus(answer.status)
      } else if (answer.status === 'expired') {
        setToken(answer.token)
        setStatus('expired')
      } else {
        setStatus('error')
      }
    } catch {
      setStatus('error')
    }
  }

  const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60))
  const hasErrors = Object.keys(errors).length > 0
  const isBusy = status === 'sending' || status === 'verifying'

  return (
    <form
      ref={formRef}
      className="contact-form"
      action="/api/contact"
      method="post"
      noValidate
      onSubmit={(event) => void handleSubmit(event)}
      aria-busy={isBusy}
      onFocus={() => {
        void loadSchema()
        requestToken()
      }}
    >
      <input type="hidden" name="locale" value={locale} />
      <input type="hidden" name="form" value={form} />
      <input type="hidden" name={TOKEN_FIELD} value={token} />
      {via ? <input type="hidden" name={VIA_FIELD} value={via} /> : null}
      <div className="form-status" role="status">
        {/* The specification's words, also for a held-back post, whose readers see the daily
            digest (docs/decisions/texts-the-specification-fixes.md). */}
        {status === 'success' ? <p className="form-success">{t('form.status.success')}</p> : null}
        {status === 'verifying' ? <p>{t('form.status.verifying')}</p> : null}
        {hasErrors ? <p className="form-problem">{t('form.errorSummary')}</p> : null}
      </div>
      <div className="form-status" role="alert">
        {isProblem(status) ? (
          <p className="form-problem">
            {status === 'rateLimited'
              ? t('form.status.rateLimited', { count: minutes })
              : t(`form.status.${status satisfies Notice}`, { email: COMPANY.email })}
          </p>
        ) : null}
      </div>
      <div className="form-grid">
        {fields.map((field) => (
          <Field
            key={field.name}
            field={field}
            form={form}
            id={fieldId(field.name)}
            defaultValue={values[field.name]}
            error={errors[field.name]}
          />
        ))}
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
      {/* Not `disabled` while busy: a disabled button loses the keyboard focus; the submit
          handler ignores a second press. */}
      <button type="submit" className="button button-primary" aria-disabled={isBusy || undefined}>
        {isBusy ? t('form.sending') : t('form.submit')}
      </button>
    </form>
  )
}

type FieldProps = {
  field: ContactField
  form: ContactFormId
  id: string
  defaultValue: string | undefined
  error: FieldErrorCode | undefined
}

/** One field of the table: its label, its input, and its error linked to the input. */
function Field({ field, form, id, defaultValue, error }: FieldProps) {
  const { t } = useTranslation(['common', 'service-cards', 'support-plans'])
  const errorId = `${id}-error`
  const min = 'min' in field ? field.min : undefined
  const max = 'max' in field ? field.max : undefined
  const shared = {
    id,
    name: field.name,
    required: field.isRequired,
    'aria-invalid': error ? true : undefined,
    'aria-describedby': error ? errorId : undefined,
  }
  const text = { ...shared, defaultValue, minLength: min, maxLength: max }
  return (
    <div className={'isWide' in field ? 'field field-wide' : 'field'}>
      <label htmlFor={id}>
        {t(`form.${field.name}`)}
        {field.isRequired ? null : (
          <>
            {' '}
            <span className="field-optional">({t('form.optional')})</span>
          </>
        )}
      </label>
      {field.kind === 'select' ? (
        <select {...shared} defaultValue={defaultValue ?? ''}>
          {/* A required choice starts unchosen; an optional one can be set back to none. */}
          <option value="" disabled={field.isRequired}>
            {t(`form.${field.name}Placeholder`)}
          </option>
          {fieldOptions(field, form).map((option) => (
            <option key={option.value} value={option.value}>
              {t(option.label)}
            </option>
          ))}
        </select>
      ) : field.kind === 'textarea' ? (
        <textarea {...text} rows={6} />
      ) : (
        <input
          {...text}
          type={field.kind}
          autoComplete={'autoComplete' in field ? field.autoComplete : undefined}
        />
      )}
      {error ? (
        <p id={errorId} className="field-error">
          {t(`form.errors.${error}`, { min, max })}
        </p>
      ) : null}
    </div>
  )
}
