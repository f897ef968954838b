import { PROOF_FIELD, TOKEN_FIELD, type ContactFormId } from '#shared/contact-fields.ts'
import type { ContactApiAnswer } from '#shared/contact-schema.ts'
import type { ProofChallenge } from '#shared/proof-of-work.ts'
import { http } from '../runtime/http-client.ts'

/**
 * The contact form's requests, loaded when a visitor starts on a form (not with the page):
 * its token (with the proof of work's challenge), the proof of work, and the message itself.
 */

/**
 * A version 4 UUID. `crypto.randomUUID` exists only in secure contexts (HTTPS, localhost);
 * `getRandomValues` everywhere.
 */
function newSubmissionId(): string {
  if (typeof crypto.randomUUID === 'function') return crypto.randomUUID()
  const bytes = crypto.getRandomValues(new Uint8Array(16))
  bytes[6] = ((bytes[6] ?? 0) & 0x0f) | 0x40
  bytes[8] = ((bytes[8] ?? 0) & 0x3f) | 0x80
  const hex = [...bytes].map((byte) => byte.toString(16).padStart(2, '0')).join('')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`
}

/** A token of the visitor's own and the proof-of-work challenge its message must solve. */
type TokenGrant = { token: string; challenge: ProofChallenge }

/** Why no token came: the route's limit (and when to ask again), or anything else. */
type TokenRefusal = { retryAfterSeconds: number } | null

/** A token of this visitor's own for the form (docs/contact.md#spam-defence), or why none came. */
async function fetchToken(
  form: ContactFormId,
  locale: string,
): Promise<TokenGrant | { refused: TokenRefusal }> {
  try {
    return await http<TokenGrant>('/api/contact/token', { query: { form, locale } })
  } catch (error) {
    const answer = (error as { data?: { status?: unknown; retryAfterSeconds?: unknown } }).data
    const wait = answer?.retryAfterSeconds
    return {
      refused:
        answer?.status === 'rateLimited' && typeof wait === 'number'
          ? { retryAfterSeconds: wait }
          : null,
    }
  }
}

/**
 * A token's proof of work (docs/contact.md#spam-defence), solved in the background from the moment
 * the token came: the solver loads then and starts at once.
 */
class BackgroundProof {
  readonly grant: TokenGrant
  #payload!: Promise<string>
  #settled = false
  #failed = false

  constructor(grant: TokenGrant) {
    this.grant = grant
    this.#start()
  }

  #start() {
    this.#settled = false
    this.#failed = false
    this.#payload = import('./proof-of-work.ts').then(({ solveProof }) =>
      solveProof(this.grant.challenge),
    )
    this.#payload.then(
      () => (this.#settled = true),
      () => ((this.#settled = true), (this.#failed = true)),
    )
  }

  /**
   * The solution a post with `token` carries: none for another token, else this one, once
   * solved; `onWait` hears when the visitor has to wait for it. A failed try is tried again on
   * the same challenge (the token stays good for it). Rejects if this browser cannot solve it.
   */
  solutionFor(token: string, onWait: () => void): Promise<string | undefined> {
    if (token !== this.grant.token) return Promise.resolve(undefined)
    if (this.#failed) this.#start()
    if (!this.#settled) onWait()
    return this.#payload
  }
}

/**
 * Posts the message; 4xx and 5xx answers arrive as errors carrying the server's JSON answer,
 * anything else (offline, a proxy's page) is an error to try again.
 */
async function sendContact(body: Record<string, unknown>): Promise<ContactApiAnswer> {
  return http<ContactApiAnswer>('/api/contact', { method: 'POST', body }).catch(
    (error: unknown): ContactApiAnswer => {
      const answer = (error as { data?: ContactApiAnswer }).data
      return answer?.status ? answer : { status: 'error' }
    },
  )
}

/** What sending came to: the server's answer, or a proof of work this browser could not do. */
export type SendOutcome = ContactApiAnswer | { status: 'proofFailed' }

/**
 * One form's dealings with the server while a visitor is on it: their token (asked for once,
 * when they start on the form), its proof of work, and the message's submission id.
 */
export class FormSession {
  readonly #form: ContactFormId
  readonly #locale: string
  #tokenRequest: Promise<string | null> | null = null
  /** Why the last request for a token got none. */
  #refusal: TokenRefusal = null
  #proof: BackgroundProof | null = null
  /** The submission's id, kept while the same message is sent again. */
  #submission: { content: string; id: string } | null = null

  constructor(form: ContactFormId, locale: string) {
    this.#form = form
    this.#locale = locale
  }

  /** The visitor's own token, asked for once; its challenge is being solved when it comes. */
  token(): Promise<string | null> {
    this.#tokenRequest ??= fetchToken(this.#form, this.#locale).then((grant) => {
      if ('refused' in grant) {
        this.#refusal = grant.refused
        return null
      }
      this.#refusal = null
      this.#proof = new BackgroundProof(grant)
      return grant.token
    })
    return this.#tokenRequest
  }

  /**
   * Sends a checked message with the visitor's own token and its solution, waiting for that
   * if it is still being solved (`onWait` hears so). Never with the page's token: that is the
   * form without JavaScript's, and a script's post without a solved proof is taken for spam
   * (docs/contact.md#spam-defence).
   */
  async send(
    data: Record<string, unknown>,
    onWait: () => void,
    isRenewed = false,
  ): Promise<SendOutcome> {
    // A POST: the site's client never repeats it by itself. When the visitor sends the same
    // message again (after an error whose request Redis may have stored all the same), the
    // same id makes it the same lead, not a second one.
    const content = JSON.stringify(data)
    if (this.#submission?.content !== content) {
      this.#submission = { content, id: newSubmissionId() }
    }
    // No token of their own yet (the request failed, or the route's limit was reached): the
    // visitor, the text kept, is told to send again, and a new token (with a new challenge) is
    // asked for in the meantime: now, or once the limit's wait is over, so it is ready and old
    // enough when they send (a token made this instant is too young to be a person's,
    // docs/contact.md#spam-defence).
    const token = await this.token()
    if (!token) {
      const refusal = this.#refusal
      this.#tokenRequest = null
      if (refusal) setTimeout(() => void this.token(), refusal.retryAfterSeconds * 1000)
      else void this.token()
      return refusal ? { status: 'rateLimited', ...refusal } : { status: 'error' }
    }
    let proof: string | undefined
    try {
      proof = await this.#proof?.solutionFor(token, onWait)
    } catch {
      // Not sent: a message without its solution would be taken for spam.
      return { status: 'proofFailed' }
    }
    const answer = await sendContact({
      ...data,
      [TOKEN_FIELD]: token,
      ...(proof ? { [PROOF_FIELD]: proof } : {}),
      id: this.#submission.id,
    })
    if (answer.status === 'accepted') {
      // A token and a solution are good for one message: the next one asks for new ones.
      this.#submission = null
      this.#tokenRequest = null
      this.#proof = null
    } else if (answer.status === 'expired') {
      // The form outlived its token or the key that signed it (docs/contact.md#spam-defence): the
      // new token is good at once, so the same message goes again by itself as soon as its
      // challenge is solved; the visitor, who already pressed send, only sees it take a moment
      // longer. Once: a second renewal in a row is shown to them.
      this.#tokenRequest = Promise.resolve(answer.token)
      this.#proof = new BackgroundProof({ token: answer.token, challenge: answer.challenge })
      if (!isRenewed) return this.send(data, onWait, true)
    }
    return answer
  }
}
