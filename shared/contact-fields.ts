/**
 * What the contact forms and the API agree on, without the schema itself (shared/contact.ts),
 * so the page does not load zod before the visitor sends a form.
 */

/** Service interest values of the contact forms, in display order. */
export const SERVICE_INTEREST_VALUES = [
  'modernization',
  'presence',
  'cloud',
  'security',
  'api',
  'managed',
  'other',
] as const

export type ServiceInterest = (typeof SERVICE_INTEREST_VALUES)[number]

/** The contact page offers every option; the home page a shorter list ending with "other". */
export const SERVICE_INTERESTS = {
  full: SERVICE_INTEREST_VALUES,
  short: ['modernization', 'cloud', 'security', 'managed', 'other'],
} as const satisfies Record<string, readonly ServiceInterest[]>

export function isServiceInterest(value: unknown): value is ServiceInterest {
  return typeof value === 'string' && (SERVICE_INTEREST_VALUES as readonly string[]).includes(value)
}

export const FIELD_LIMITS = {
  name: { min: 2, max: 100 },
  email: { max: 254 },
  company: { max: 150 },
  subject: { min: 3, max: 150 },
  message: { min: 10, max: 5000 },
} as const

/** The hidden field people never see; anything in it marks the sender as a bot. */
export const HONEYPOT_FIELD = 'website'

export const FIELD_ERROR_CODES = [
  'required',
  'tooShort',
  'tooLong',
  'invalidEmail',
  'invalidOption',
  'controlCharacters',
  'invalid',
] as const

export type FieldErrorCode = (typeof FIELD_ERROR_CODES)[number]

export type ContactField = 'name' | 'email' | 'company' | 'service' | 'subject' | 'message'
export type FieldErrors = Partial<Record<ContactField, FieldErrorCode>>

/** Answers of `POST /api/contact` (JSON). */
export type ContactApiAnswer =
  | { status: 'accepted'; id: string }
  | { status: 'invalid'; errors: FieldErrors }
  | { status: 'rateLimited'; retryAfterSeconds: number }
  | { status: 'error' }
