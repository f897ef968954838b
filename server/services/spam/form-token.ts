import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto'
import { isContactFormId, type ContactFormId } from '#shared/contact-fields.ts'
import { isLocale, type Locale } from '#shared/locales.ts'
import type { ClaimStore } from './claims.ts'
import type { TokenKey, TokenKeys } from './token-keys.ts'

/**
 * The contact forms' signed tokens (docs/contact.md#spam-defence; docs/decisions/form-tokens.md). A
 * token says when the server gave it out, for which form and language, and how:
 * - `page`: written into a page the cache keeps (the form without JavaScript); every visitor of
 *   that page within a cache window gets the same one;
 * - `script`: fetched by the form's script when a visitor starts on the form, one per visitor.
 *
 * `2.<key id>.<kind>.<issued, base 36 ms>.<form>.<locale>.<nonce>.<HMAC-SHA256, base64url>`:
 * nothing personal, nothing secret in it; only the signature needs the key, which the key id
 * names (token-keys.ts). Version 1, without a key id, is still read: pages
 * and open forms of the release before key ids carry it.
 */
export type TokenKind = 'page' | 'script'

export type TokenClaims = {
  kind: TokenKind
  issuedAt: number
  form: ContactFormId
  locale: Locale
  /** Random: what a replay is recognised by. */
  nonce: string
  /** The key that signed it. */
  keyId: string
}

/**
 * What a post's token is worth. `expired` and `keyUnknown` are a person's form that outlived
 * its token or its key (answered with a new token); the rest but `valid` are dropped as spam.
 * `keyUnknown`: well formed, but signed by no key this process has (a key rotated out longer
 * ago than a token lives, or lost with its data folder), so nothing tells it from a forgery.
 */
export type TokenCheck =
  | { verdict: 'valid'; claims: TokenClaims }
  | { verdict: 'expired'; claims: TokenClaims }
  | { verdict: 'missing' | 'forged' | 'tooYoung' | 'keyUnknown' }

export type TokenLimits = { minAgeMs: number; maxAgeMs: number }

const VERSION = '2'
const KIND_CODES: Record<TokenKind, string> = { page: 'p', script: 's' }
/** Version 2 names its key; version 1 (no key id) is tried with every key. */
const SHAPE =
  /^(?:2\.([\w-]{8})|1)\.([ps])\.([0-9a-z]{1,12})\.([a-z]{1,20})\.([a-z]{2})\.([\w-]{16,43})\.([\w-]{43})$/

function sign(secret: Buffer, payload: string): string {
  return createHmac('sha256', secret).update(payload).digest('base64url')
}

export function issueToken(
  key: TokenKey,
  {
    kind,
    form,
    locale,
    issuedAt = Date.now(),
  }: Omit<TokenClaims, 'nonce' | 'issuedAt' | 'keyId'> & {
    issuedAt?: number
  },
): string {
  const nonce = randomBytes(16).toString('base64url')
  const payload = [VERSION, key.id, KIND_CODES[kind], issuedAt.toString(36), form, locale, nonce]
  return `${payload.join('.')}.${sign(key.secret, payload.join('.'))}`
}

function isSignedBy(key: TokenKey, payload: string, signature: string): boolean {
  const expected = Buffer.from(sign(key.secret, payload))
  const given = Buffer.from(signature)
  return given.length === expected.length && timingSafeEqual(given, expected)
}

/**
 * A post's token checked against the form and language the post names: signed with the key
 * it names, at least `minAgeMs` old (nobody fills a form that fast) and at most `maxAgeMs`. An
 * expired token is not spam: a person who left the form open for hours is told and sends
 * again; nor is one whose key this process does not have (`keyUnknown`).
 */
function checkToken(
  keys: Pick<TokenKeys, 'byId' | 'all'>,
  token: unknown,
  expected: { form: ContactFormId; locale: Locale },
  limits: TokenLimits,
  now = Date.now(),
): TokenCheck {
  if (typeof token !== 'string' || token === '') return { verdict: 'missing' }
  const match = SHAPE.exec(token)
  if (!match) return { verdict: 'forged' }
  const [, id, code, issued, form, locale, nonce, signature = ''] = match
  const payload = token.slice(0, token.lastIndexOf('.'))
  let signer: TokenKey | undefined
  if (id === undefined) {
    // Version 1 names no key: any key that verifies it; none is a key this process lacks.
    signer = keys.all().find((key) => isSignedBy(key, payload, signature))
    if (!signer) return { verdict: 'keyUnknown' }
  } else {
    signer = keys.byId(id)
    if (!signer) return { verdict: 'keyUnknown' }
    // The key it names, and the signature does not hold: changed after it was signed.
    if (!isSignedBy(signer, payload, signature)) return { verdict: 'forged' }
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
    keyId: signer.id,
  }
  const age = now - claims.issuedAt
  if (age < limits.minAgeMs) return { verdict: 'tooYoung' }
  if (age > limits.maxAgeMs) return { verdict: 'expired', claims }
  return { verdict: 'valid', claims }
}

/**
 * The app's tokens: its keys, limits and the claims that make a token good for one message.
 * `issue` for a page or a script; `matured` for a form shown again after a post (an error to
 * correct, an expired token), whose visitor may send at once.
 */
export class FormTokens {
  readonly #keys: TokenKeys
  readonly limits: TokenLimits
  readonly claims: ClaimStore

  constructor(keys: TokenKeys, limits: TokenLimits, claims: ClaimStore) {
    this.#keys = keys
    this.limits = limits
    this.claims = claims
  }

  issue(kind: TokenKind, form: ContactFormId, locale: Locale, issuedAt = Date.now()): string {
    return issueToken(this.#keys.current, { kind, form, locale, issuedAt })
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
    return checkToken(this.#keys, token, expected, this.limits)
  }

  /**
   * An address within one window of the page tokens' budget (page-budget.ts), as a keyed
   * checksum: the address itself is not kept, and the window's number makes each window's
   * checksum another.
   */
  addressKey(address: string, window: number): string {
    return createHmac('sha256', this.#keys.current.secret)
      .update(`${address}\n${window}`)
      .digest('base64url')
  }

  /** The claim of a message's text (`repeated`, docs/contact.md#spam-defence): a keyed checksum. */
  textKey(text: string): string {
    return `text:${createHmac('sha256', this.#keys.current.secret).update(text).digest('base64url')}`
  }

  /**
   * What holds a token's claim (docs/contact.md#spam-defence): the submission, meaning its token,
   * its id and its whole message, as a keyed checksum. The same submission sent again (after an
   * error, with the id the form keeps) holds the claim it made; another message with the same
   * token and id does not, so a client that keeps its id fixed still sends one message per
   * token. A post without an id gets a new one from the server, so it never matches.
   */
  submissionValue(claims: TokenClaims, submissionId: string, message: unknown): string {
    const secret = (this.#keys.byId(claims.keyId) ?? this.#keys.current).secret
    return createHmac('sha256', secret)
      .update(`${claims.nonce}\n${submissionId}\n${JSON.stringify(message)}`)
      .digest('base64url')
  }

  /**
   * The claim a message with this token makes (docs/contact.md#spam-defence): a script's token is
   * one visitor's, so the token itself; a page's token is shared by everyone who saw that
   * page, so the token with the message (the same plain post sent twice is one lead).
   */
  claimKey(claims: TokenClaims, message: unknown): string {
    if (claims.kind === 'script') return `token:${claims.nonce}`
    // The key that signed the token: the same post sent again is the same claim after a
    // replica adopted another signing key (token-keys.ts).
    const secret = (this.#keys.byId(claims.keyId) ?? this.#keys.current).secret
    const digest = createHmac('sha256', secret)
      .update(`${claims.nonce}\n${JSON.stringify(message)}`)
      .digest('base64url')
    return `post:${digest}`
  }
}
