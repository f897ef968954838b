import { loadConfig } from '#server/config.ts'
import { issueToken } from '#server/services/form-token.ts'
import { isContactFormId } from '#shared/contact-fields.ts'
import { isLocale } from '#shared/locales.ts'

/**
 * Form tokens for tests that post as a person's browser would (README, Spam defence). The
 * test apps sign with `TEST_TOKEN_SECRET` (`buildTestApp`, and the processes the replica and
 * container tests start), so a test can make the token a form would have had.
 */
export const TEST_TOKEN_SECRET = 'a-key-only-the-tests-use-to-sign-form-tokens'

/**
 * How long a browser test waits between starting on a form and sending it, as a person takes
 * at least: the default `CONTACT_TOKEN_MIN_AGE` and half a second (a faster post is a bot's,
 * dropped with the success answer, README, Spam defence).
 */
export const PERSON_PAUSE_MS = loadConfig({}).CONTACT_TOKEN_MIN_AGE + 500

/** How long ago a person's form got its token: more than the minimum age, far below the maximum. */
const PERSON_PACE_MS = 30_000

/** The token a person's form has when they send it: issued half a minute ago. */
export function personToken(form: string, locale: string, secret = TEST_TOKEN_SECRET): string {
  if (!isContactFormId(form) || !isLocale(locale)) throw new Error(`no form ${form}/${locale}`)
  return issueToken(Buffer.from(secret), {
    kind: 'script',
    form,
    locale,
    issuedAt: Date.now() - PERSON_PACE_MS,
  })
}

/**
 * A body (JSON object or urlencoded string) with the token of the form and language it names,
 * as the route reads them (the contact page's form in English when it names none).
 */
export function withToken<Body extends object | string>(body: Body, secret?: string): Body {
  if (typeof body === 'string') {
    const fields = new URLSearchParams(body)
    fields.set('token', tokenFor(Object.fromEntries(fields), secret))
    return fields.toString() as Body
  }
  const fields = body as Record<string, unknown>
  return { ...fields, token: tokenFor(fields, secret) } as Body
}

function tokenFor(body: Record<string, unknown>, secret?: string): string {
  const form = isContactFormId(body.form) ? body.form : 'contact'
  const locale = isLocale(body.locale) ? body.locale : 'en'
  return personToken(form, locale, secret)
}
