import * as z from 'zod/mini'
import {
  CONTACT_FIELDS,
  CONTACT_FORMS,
  FIELD_ERROR_CODES,
  isContactFormId,
  type ContactField,
  type ContactFieldName,
  type ContactFormId,
  type FieldErrorCode,
  type FieldErrors,
} from './contact-fields.ts'
import { LOCALES, type Locale } from './locales.ts'
import { ProofChallengeSchema } from './proof-of-work.ts'

/**
 * The contact submission (docs/contact.md#contact-form-and-mail-delivery): one schema, built from
 * the field table, used by the browser for field messages and by the server as the API route's
 * body schema. zod/mini keeps what the browser downloads small; the forms load it when a
 * visitor starts filling them in (docs/decisions/zodmini-for-the-contact-schema.md). Error
 * messages are codes (`tooShort`), which the forms turn into localized texts.
 */

/**
 * One line of text: no control characters at all (no CR/LF that could become a header). A post
 * with one is refused, not cleaned (docs/decisions/messages-are-refused-not-cleaned.md).
 */
const SINGLE_LINE = /^[^\p{Cc}]*$/u
/** The message may have line breaks and tabs, no other control characters. */
const MULTI_LINE = /^(?:[^\p{Cc}]|[\t\n\r])*$/u

/**
 * Characters that make a line read other than it is: bidi embeddings and overrides
 * (U+202A–202E), isolates (U+2066–2069) and zero-width characters (U+200B–200D, U+2060,
 * U+FEFF). A name or subject reaches the inbox as typed, minus these: in a subject line a
 * reversed or hidden text could disguise what a message is.
 */
const DECEPTIVE = /[\u202A-\u202E\u2066-\u2069\u200B-\u200D\u2060\uFEFF]/gu

/** A one-line text without the characters that disguise it. */
export function withoutDeceptiveCharacters(text: string): string {
  return text.replace(DECEPTIVE, '')
}

/** Missing, empty or blank means "not given". */
const blankToUndefined = z.transform((value: string) => (value === '' ? undefined : value))

/** One-line text fields lose the disguising characters before anything else is checked. */
const cleaned = (field: ContactField) =>
  field.kind === 'text' ? [z.overwrite(withoutDeceptiveCharacters)] : []

function requiredField(field: ContactField) {
  if (field.kind === 'select') {
    return z.enum(
      field.options.map((option) => option.value) as [string, ...string[]],
      'invalidOption',
    )
  }
  const text = z
    .string('required')
    .check(
      ...cleaned(field),
      z.trim(),
      z.minLength(1, 'required'),
      z.minLength('min' in field ? field.min : 1, 'tooShort'),
      z.maxLength(field.max, 'tooLong'),
      z.regex(field.kind === 'textarea' ? MULTI_LINE : SINGLE_LINE, 'controlCharacters'),
    )
  return field.kind === 'email' ? text.check(z.email('invalidEmail')) : text
}

function optionalField(field: ContactField) {
  return z.optional(
    z.pipe(
      z.pipe(z.string('invalid').check(...cleaned(field), z.trim()), blankToUndefined),
      z.optional(requiredField(field)),
    ),
  )
}

const FORM_COUNT = Object.keys(CONTACT_FORMS).length

/**
 * The schema of one form's message: every field of the table, required where the table
 * requires it on this form. Without a form (an API client), only what every form requires.
 */
function messageSchema(form: ContactFormId | null) {
  const shape: Record<string, z.ZodMiniType> = {}
  for (const field of CONTACT_FIELDS) {
    const forms: readonly string[] = field.forms
    const isRequired =
      field.isRequired && (form ? forms.includes(form) : forms.length === FORM_COUNT)
    shape[field.name] = isRequired ? requiredField(field) : optionalField(field)
  }
  return z.object({
    ...shape,
    // The language of the sender's page; anything else falls back to English.
    locale: z.catch(z.enum(LOCALES), 'en'),
    // The submission's own id: the form makes one per message and keeps it when the same
    // message is sent again, so a repeated request is not a second lead. Optional for API
    // clients; the server then makes one. A version 4 UUID, as `crypto.randomUUID()` makes:
    // the site's own mails have ids of version 8, which no post can take.
    id: z.optional(z.string('invalid').check(z.uuid({ version: 'v4', error: 'invalid' }))),
  })
}

const FORM_SCHEMAS = {
  contact: messageSchema('contact'),
  home: messageSchema('home'),
  none: messageSchema(null),
}

/** Fields every form shows and requires: always present in a validated message. */
type AlwaysRequired = Extract<ContactField, { isRequired: true; forms: ContactFormId[] }>['name']

/** A validated message as it is stored and mailed (its id travels beside it). */
export type ContactMessage = { [Name in AlwaysRequired]: string } & {
  [Name in Exclude<ContactFieldName, AlwaysRequired>]?: string
} & { locale: Locale }

export type ValidSubmission = { id: string | undefined; message: ContactMessage }

/**
 * `POST /api/contact`'s body, JSON or urlencoded alike: validated with the schema of the form
 * it names (`form`), every field's problem reported at once.
 */
export const ContactSubmissionSchema = z.pipe(
  z.unknown(),
  z.transform((input, context): ValidSubmission => {
    const form =
      typeof input === 'object' && input !== null && 'form' in input ? input.form : undefined
    const result = z.safeParse(FORM_SCHEMAS[isContactFormId(form) ? form : 'none'], input)
    if (!result.success) {
      for (const issue of result.error.issues) {
        context.issues.push({ code: 'custom', message: issue.message, path: issue.path, input })
      }
      return z.NEVER
    }
    const { id, ...message } = result.data as ContactMessage & { id?: string }
    return { id, message }
  }),
)

/** Validate a submission as the API does: the message, or each field's error code. */
export function parseContact(
  input: unknown,
): ({ success: true } & ValidSubmission) | { success: false; errors: FieldErrors } {
  const result = z.safeParse(ContactSubmissionSchema, input)
  if (result.success) return { success: true, ...result.data }
  return { success: false, errors: fieldErrors(result.error.issues) }
}

const FIELD_NAMES: readonly string[] = CONTACT_FIELDS.map((field) => field.name)

/**
 * The first problem of each field, as a code, from a validation's issues (zod's in the
 * browser, Fastify's on the server); problems outside the fields (locale, shape) are dropped.
 */
export function fieldErrors(
  issues: readonly { path: readonly PropertyKey[]; message: string }[],
): FieldErrors {
  const errors: FieldErrors = {}
  for (const { path, message } of issues) {
    const [field] = path
    if (typeof field !== 'string' || !FIELD_NAMES.includes(field)) continue
    const code = (FIELD_ERROR_CODES as readonly string[]).includes(message)
      ? (message as FieldErrorCode)
      : 'invalid'
    errors[field as ContactFieldName] ??= code
  }
  return errors
}

/** The API's answers (JSON), by status: also the route's response schemas. */
export const ContactAnswerSchemas = {
  202: z.object({ status: z.literal('accepted'), id: z.string() }),
  400: z.object({
    status: z.literal('invalid'),
    errors: z.partialRecord(
      z.enum(
        CONTACT_FIELDS.map((field) => field.name) as [ContactFieldName, ...ContactFieldName[]],
      ),
      z.enum(FIELD_ERROR_CODES),
    ),
  }),
  /** Posted from another site (docs/contact.md#spam-defence): refused, the form shown again. */
  403: z.object({ status: z.literal('foreign') }),
  /**
   * The form was open longer than its token lasts: a new token to send the message again
   * with, and a new challenge to solve for it.
   */
  409: z.object({
    status: z.literal('expired'),
    token: z.string(),
    challenge: ProofChallengeSchema,
  }),
  429: z.object({ status: z.literal('rateLimited'), retryAfterSeconds: z.number() }),
  /** The outbox could not take the message, or the process is overloaded: try again later. */
  503: z.object({ status: z.literal('error'), retryAfterSeconds: z.optional(z.number()) }),
}

/** An answer of `POST /api/contact` (JSON). */
export type ContactApiAnswer = {
  [Status in keyof typeof ContactAnswerSchemas]: z.output<(typeof ContactAnswerSchemas)[Status]>
}[keyof typeof ContactAnswerSchemas]
