import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { isContactFormId, type ContactFormId } from '#shared/contact-fields.ts'
import { isLocale, type Locale } from '#shared/locales.ts'
import type { ClaimStore } from './claims.ts'

/**
 * The contact forms' signed tokens (README, Spam defence; docs/decisions/form-tokens.md). A
 * token says when the server gave it out, for which form and language, and how:
 * - `page`: written into a page the cache keeps (the form without JavaScript); every visitor of
 *   that page within a cache window gets the same one;
 * - `script`: fetched by the form's script when a visitor starts on the form, one per visitor.
 *
 * `1.<kind>.<issued, base 36 ms>.<form>.<locale>.<nonce>.<HMAC-SHA256, base64url>`: nothing
 * personal, nothing secret in it; only the signature needs the key.
 */
export const TOKEN_KINDS = ['page', 'script'] as const
export type TokenKind = (typeof TOKEN_KINDS)[number]

export type TokenClaims = {
  kind: TokenKind
  issuedAt: number
  form: ContactFormId
  locale: Locale
  /** Random: what a replay is recognised by. */
  nonce: string
}

/** What a post's token is worth; everything but `valid` and `expired` is dropped as spam. */
export type TokenCheck =
  | { verdict: 'valid'; claims: TokenClaims }
  | { verdict: 'expired'; claims: TokenClaims }
  | { verdict: 'missing' | 'forged' | 'tooYoung' }

export type TokenLimits = { minAgeMs: number; maxAgeMs: number }

const VERSION = '1'
const KIND_CODES: Record<TokenKind, string> = { page: 'p', script: 's' }
const SHAPE =
  /^1\.([ps])\.([0-9a-z]{1,12})\.([a-z]{1,20})\.([a-z]{2})\.([\w-]{16,43})\.([\w-]{43})$/

function sign(secret: Buffer, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url')
}

export function issueToken(
  secret: Buffer,
  {
    kind,
    form,
    locale,
    issuedAt = Date.now(),
  }: Omit<TokenClaims, 'nonce' | 'issuedAt'> & {
    issuedAt?: number
  },
): string {
  const nonce = randomBytes(16).toString('base64url')
  const payload = [VERSION, KIND_CODES[kind], issuedAt.toString(36), form, locale, nonce].join('.')
  return `${payload}.${sign(secret, payload)}`
}

/**
 * A post's token checked against the form and language the post names: signed with this key,
 * at least `minAgeMs` old (nobody fills a form that fast) and at most `maxAgeMs`. An expired
 * token is not spam: a person who left the form open for hours is told and sends again.
 */
export function checkToken(
  secret: Buffer,
  token: unknown,
  expected: { form: ContactFormId; locale: Locale },
  limits: TokenLimits,
  now = Date.now(),
): TokenCheck {
  if (typeof token !== 'string' || token === '') return { verdict: 'missing' }
  const match = SHAPE.exec(token)
  if (!match) return { verdict: 'forged' }
  const [, code, issued, form, locale, nonce, signature] = match as unknown as string[]
  const payload = token.slice(0, token.lastIndexOf('.'))
  const expectedSignature = Buffer.from(sign(secret, payload))
  const given = Buffer.from(signature ?? '')
  if (given.length !== expectedSignature.length || !timingSafeEqual(given, expectedSignature)) {
    return { verdict: 'forged' }
  }
  // Signed by us, for another form or language: not what this post claims to be.
  if (!isContactFormId(form) || !isLocale(locale)) return { verdict: 'forged' }
  if (form !== expected.form || locale !== expected.locale) return { verdict: 'forged' }
  const claims: TokenClaims = {
    kind: code === 'p' ? 'page' : 'script',
    issuedAt: parseInt(issued ?? '', 36),
    form,
    locale,
    nonce: nonce ?? '',
  }
  const age = now - claims.issuedAt
  if (age < limits.minAgeMs) return { verdict: 'tooYoung' }
  if (age > limits.maxAgeMs) return { verdict: 'expired', claims }
  return { verdict: 'valid', claims }
}

/**
 * The app's tokens: its key, limits and the claims that make a token good for one message.
 * `issue` for a page or a script; `matured` for a form shown again after a post (an error to
 * correct, an expired token), whose visitor may send at once.
 */
export class FormTokens {
  readonly #secret: Buffer
  readonly limits: TokenLimits
  readonly claims: ClaimStore

  constructor(secret: Buffer, limits: TokenLimits, claims: ClaimStore) {
    this.#secret = secret
    this.limits = limits
    this.claims = claims
  }

  issue(kind: TokenKind, form: ContactFormId, locale: Locale, issuedAt = Date.now()): string {
    return issueToken(this.#secret, { kind, form, locale, issuedAt })
  }

  /**
   * A token good at once, for a form shown again (an expired token's): `script` for the
   * form's script (which gets a new challenge with it), `page` for a page rendered for a post
   * without JavaScript.
   */
  matured(kind: TokenKind, form: ContactFormId, locale: Locale): string {
    return this.issue(kind, form, locale, Date.now() - this.limits.minAgeMs)
  }

  check(token: unknown, expected: { form: ContactFormId; locale: Locale }): TokenCheck {
    return checkToken(this.#secret, token, expected, this.limits)
  }

  /** The claim of a message's text (`repeated`, README, Spam defence): a keyed checksum. */
  textKey(text: string): string {
    return `text:${createHmac('sha256', this.#secret).update(text).digest('base64url')}`
  }

  /**
   * The claim a message with this token makes (README, Spam defence): a script's token is
   * one visitor's, so the token itself; a page's token is shared by everyone who saw that
   * page, so the token with the message (the same plain post sent twice is one lead).
   */
  claimKey(claims: TokenClaims, message: unknown): string {
    if (claims.kind === 'script') return `token:${claims.nonce}`
    const digest = createHmac('sha256', this.#secret)
      .update(`${claims.nonce}\n${JSON.stringify(message)}`)
      .digest('base64url')
    return `post:${digest}`
  }
}
