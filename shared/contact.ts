import * as z from 'zod/mini'
import {
  FIELD_ERROR_CODES,
  FIELD_LIMITS,
  SERVICE_INTEREST_VALUES,
  type ContactField,
  type FieldErrorCode,
  type FieldErrors,
} from './contact-fields.ts'
import { LOCALES } from './locales.ts'

/**
 * The contact message (README, Contact form and mail delivery): one schema, used by the browser for field messages and
 * by the server for the API. zod/mini keeps what the browser downloads small; the forms load
 * it when a visitor starts filling them in. Error messages are codes (`tooShort`), which the
 * forms turn into localized texts.
 */

/** One line of text: no control characters at all (no CR/LF that could become a header). */
const SINGLE_LINE = /^[^\p{Cc}]*$/u
/** The message may have line breaks and tabs, no other control characters. */
const MULTI_LINE = /^(?:[^\p{Cc}]|[\t\n\r])*$/u

function text(limits: { min?: number; max: number }, pattern: RegExp) {
  return z
    .string('required')
    .check(
      z.trim(),
      z.minLength(1, 'required'),
      z.minLength(limits.min ?? 1, 'tooShort'),
      z.maxLength(limits.max, 'tooLong'),
      z.regex(pattern, 'controlCharacters'),
    )
}

/** An optional text: missing, empty or blank means "not given". */
function optionalText(limits: { max: number }) {
  return z.optional(
    z.pipe(
      z.string('invalid').check(z.trim(), z.maxLength(limits.max, 'tooLong')),
      z.transform((value) => (value === '' ? undefined : value)),
    ),
  )
}

const baseShape = {
  name: text(FIELD_LIMITS.name, SINGLE_LINE),
  email: z
    .string('required')
    .check(
      z.trim(),
      z.minLength(1, 'required'),
      z.maxLength(FIELD_LIMITS.email.max, 'tooLong'),
      z.regex(SINGLE_LINE, 'controlCharacters'),
      z.email('invalidEmail'),
    ),
  company: optionalText(FIELD_LIMITS.company),
  service: z.enum(SERVICE_INTEREST_VALUES, 'invalidOption'),
  message: text(FIELD_LIMITS.message, MULTI_LINE),
  // The language of the sender's page; anything else falls back to English.
  locale: z.catch(z.enum(LOCALES), 'en'),
  // The submission's own id: the form makes one per message and keeps it when the same
  // message is sent again, so a repeated request is not a second lead. Optional for API
  // clients; the server then makes one.
  id: z.optional(z.string('invalid').check(z.uuid('invalid'))),
}

/**
 * What `POST /api/contact` accepts. The subject is optional because the home page's short
 * form has none; when given it must be a proper subject.
 */
export const ContactMessageSchema = z.object({
  ...baseShape,
  subject: z.optional(
    z.pipe(
      z.pipe(
        z.string('invalid').check(z.trim()),
        z.transform((value) => (value === '' ? undefined : value)),
      ),
      z.optional(text(FIELD_LIMITS.subject, SINGLE_LINE)),
    ),
  ),
})

/** The contact page's form, where the subject is required. */
export const ContactPageMessageSchema = z.object({
  ...baseShape,
  subject: text(FIELD_LIMITS.subject, SINGLE_LINE),
})

/** A validated message as it is stored and mailed (its id travels beside it). */
export type ContactMessage = Omit<z.output<typeof ContactMessageSchema>, 'id'>

const FIELDS: readonly string[] = ['name', 'email', 'company', 'service', 'subject', 'message']

/** The first error of each field, as a code; other problems (locale, shape) as `invalid`. */
export function fieldErrors(error: z.core.$ZodError): FieldErrors {
  const errors: FieldErrors = {}
  for (const issue of error.issues) {
    const [field] = issue.path
    if (typeof field !== 'string' || !FIELDS.includes(field)) continue
    const code = (FIELD_ERROR_CODES as readonly string[]).includes(issue.message)
      ? (issue.message as FieldErrorCode)
      : 'invalid'
    errors[field as ContactField] ??= code
  }
  return errors
}
