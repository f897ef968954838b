import type { FieldErrors } from './contact-fields.ts'
import { localizePath, type Locale } from './locales.ts'

/** The two forms: the contact page's (`contact`) and the home page's section (`home`). */
export const CONTACT_FORMS = ['contact', 'home'] as const
export type ContactFormId = (typeof CONTACT_FORMS)[number]

/** The page a form lives on: where a plain post returns to (never taken from the request). */
export function contactFormPath(form: ContactFormId, locale: Locale): string {
  return localizePath(locale, form === 'contact' ? '/contact' : '/')
}

/** A plain (no-JavaScript) post answered with its page: the form's state to show. */
export type ContactFormState = {
  form: ContactFormId
  values: Record<string, string>
  errors: FieldErrors
  outcome?: 'error' | 'rateLimited'
  retryAfterSeconds?: number
}
