import { solveChallenge } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2'
import { loadConfig } from '#server/config.ts'
import { issueToken } from '#server/services/spam/form-token.ts'
import { ProofOfWork } from '#server/services/spam/proof-of-work.ts'
import { TokenKeys, tokenKey } from '#server/services/spam/token-keys.ts'
import { isContactFormId, PROOF_FIELD, TOKEN_FIELD } from '#shared/contact-fields.ts'
import { isLocale } from '#shared/locales.ts'
import { encodeProof, type ProofChallenge } from '#shared/proof-of-work.ts'

/**
 * Form tokens for tests that post as a person's browser would (docs/contact.md#spam-defence). The
 * test apps sign with `TEST_TOKEN_SECRET` (`buildTestApp`, and the processes the replica and
 * container tests start), so a test can make the token a form would have had.
 */
export const TEST_TOKEN_SECRET = 'a-key-only-the-tests-use-to-sign-form-tokens'

/**
 * How long a browser test waits between starting on a form and sending it, as a person takes
 * at least: the default `CONTACT_TOKEN_MIN_AGE` and half a second (a faster post is a bot's,
 * dropped with the success answer, docs/contact.md#spam-defence).
 */
export const PERSON_PAUSE_MS = loadConfig({}).CONTACT_TOKEN_MIN_AGE + 500

/** How long ago a person's form got its token: more than the minimum age, far below the maximum. */
const PERSON_PACE_MS = 30_000

/** The token a person's form has when they send it: issued half a minute ago. */
export function personToken(form: string, locale: string, secret = TEST_TOKEN_SECRET): string {
  if (!isContactFormId(form) || !isLocale(locale)) throw new Error(`no form ${form}/${locale}`)
  return issueToken(tokenKey(Buffer.from(secret)), {
    kind: 'script',
    form,
    locale,
    issuedAt: Date.now() - PERSON_PACE_MS,
  })
}

/**
 * A solved proof of work, as the form's script posts it (docs/contact.md#spam-defence): a challenge
 * signed with the test key whose counter is 0, so solving it is one key derivation. The
 * server checks it exactly as a browser's.
 */
export async function personProof(secret = TEST_TOKEN_SECRET): Promise<string> {
  const keys = new TokenKeys(Buffer.from(secret))
  const proofs = new ProofOfWork(keys, loadConfig({}).CONTACT_TOKEN_MAX_AGE, {
    min: 0,
    max: 0,
  })
  const challenge = await proofs.challenge()
  const solution = await solveChallenge({ challenge, deriveKey })
  if (!solution) throw new Error('the test challenge has no solution')
  return encodeProof(challenge, solution)
}

/** A challenge the server gave, solved as the form's script solves it (one thread here). */
export async function solveProof(challenge: ProofChallenge): Promise<string> {
  const solution = await solveChallenge({ challenge, deriveKey })
  if (!solution) throw new Error('the challenge has no solution')
  return encodeProof(challenge, solution)
}

/**
 * A body (JSON object or urlencoded string) with the token of the form and language it names,
 * as the route reads them (the contact page's form in English when it names none), and a
 * solved proof of work.
 */
export async function withToken<Body extends object | string>(
  body: Body,
  secret?: string,
): Promise<Body> {
  const proof = await personProof(secret)
  if (typeof body === 'string') {
    const fields = new URLSearchParams(body)
    fields.set(TOKEN_FIELD, tokenFor(Object.fromEntries(fields), secret))
    fields.set(PROOF_FIELD, proof)
    return fields.toString() as Body
  }
  const fields = body as Record<string, unknown>
  return { ...fields, [TOKEN_FIELD]: tokenFor(fields, secret), [PROOF_FIELD]: proof } as Body
}

function tokenFor(body: Record<string, unknown>, secret?: string): string {
  const form = isContactFormId(body.form) ? body.form : 'contact'
  const locale = isLocale(body.locale) ? body.locale : 'en'
  return personToken(form, locale, secret)
}
