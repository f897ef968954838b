import type { ContactFormId } from '#shared/contact-fields.ts'
import type { ContactApiAnswer } from '#shared/contact-schema.ts'
import { http } from '../runtime/http-client.ts'

/**
 * The contact form's requests, loaded when a visitor starts on a form (not with the page):
 * its token and the message itself.
 */

/**
 * A version 4 UUID. `crypto.randomUUID` exists only in secure contexts (HTTPS, localhost);
 * `getRandomValues` everywhere.
 */
export function newSubmissionId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** A token of this visitor's own for the form (README, Spam defence); null if none came. */
export async function fetchToken(form: ContactFormId, locale: string): Promise<string | null> {
  try {
    const answer: { token: string } = await http('/api/contact/token', { query: { form, locale } })
    return answer.token
  } catch {
    return null
  }
}

/**
 * Posts the message; 4xx and 5xx answers arrive as errors carrying the server's JSON answer,
 * anything else (offline, a proxy's page) is an error to try again.
 */
export async function sendContact(body: Record<string, unknown>): Promise<ContactApiAnswer> {
  return http<ContactApiAnswer>('/api/contact', { method: 'POST', body }).catch(
    (error: unknown): ContactApiAnswer => {
      const answer = (error as { data?: ContactApiAnswer }).data
      return answer?.status ? answer : { status: 'error' }
    },
  )
}
