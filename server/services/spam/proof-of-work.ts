import { createHmac } from 'node:crypto'
import { createChallenge, randomInt, verifySolution } from 'altcha-lib'
import { deriveKey } from 'altcha-lib/algorithms/pbkdf2'
import {
  PROOF_ALGORITHM,
  ProofChallengeSchema,
  ProofPayloadSchema,
  type ProofChallenge,
} from '#shared/proof-of-work.ts'
import type { TokenKey, TokenKeys } from './token-keys.ts'

/**
 * The contact form's proof of work (docs/contact.md#spam-defence; docs/decisions/proof-of-work.md):
 * ALTCHA challenges made and checked with altcha-lib. The form's script gets one with its
 * token and solves it in Web Workers while the visitor types; a script's token counts only
 * with a solution. Without JavaScript there is no script token, and the other layers decide.
 *
 * Deterministic mode: the server picks the counter, derives its key once (one PBKDF2 run of
 * `PROOF_COST` iterations) and signs it, so checking a solution is two HMACs, never a key
 * derivation a flood of posts could make the server pay for. The browser tries counters from
 * 0 until the key's first half matches: on average `(min + max) / 2` derivations.
 */
export const PROOF_COST = 5_000
/** The counter's range (docs/contact.md#spam-defence). */
const PROOF_COUNTER = { min: 200, max: 600 } as const

/**
 * `keyUnknown`: a challenge signed by a key this process does not have (rotated out, or lost
 * with its data folder): a person's form, answered like an expired token, never dropped.
 */
export type ProofCheck =
  | { verdict: 'valid'; claimKey: string; expiresAt: number }
  | { verdict: 'missing' | 'invalid' | 'keyUnknown' }

/** A key of its own for each use, derived from the token key (one secret to configure). */
function subkey(secret: Buffer, use: string): string {
  return createHmac('sha256', secret).update(`altcha:${use}`).digest('base64url')
}

/** The two HMAC secrets altcha-lib signs a challenge and its key with. */
function signingSecrets(key: TokenKey) {
  return {
    hmacSignatureSecret: subkey(key.secret, 'challenge'),
    hmacKeySignatureSecret: subkey(key.secret, 'key'),
  }
}

export class ProofOfWork {
  readonly #keys: Pick<TokenKeys, 'current' | 'byId' | 'all'>
  /** How long a challenge is good for: as long as the token it comes with. */
  readonly #lifetimeMs: number

  readonly #counter: { min: number; max: number }

  /** `counter`: the range to pick from (tests that post as people take 0: one derivation). */
  constructor(
    keys: Pick<TokenKeys, 'current' | 'byId' | 'all'>,
    lifetimeMs: number,
    counter: { min: number; max: number } = PROOF_COUNTER,
  ) {
    this.#keys = keys
    this.#lifetimeMs = lifetimeMs
    this.#counter = counter
  }

  /**
   * A new signed challenge (nothing personal in it: random nonce and salt, a counter's key),
   * naming the key that signed it in its signed data.
   */
  async challenge(now = Date.now()): Promise<ProofChallenge> {
    const key = this.#keys.current
    const challenge = await createChallenge({
      algorithm: PROOF_ALGORITHM,
      cost: PROOF_COST,
      counter: randomInt(this.#counter.min, this.#counter.max),
      data: { keyId: key.id },
      deriveKey,
      expiresAt: Math.floor((now + this.#lifetimeMs) / 1000),
      ...signingSecrets(key),
    })
    // Exactly the shape posts are checked against: a field altcha-lib added would fail here.
    return ProofChallengeSchema.parse(challenge)
  }

  /**
   * A post's solution: `missing` if there is none, `invalid` if it does not parse, its
   * challenge is not ours (or was changed), it has expired or the key is wrong, `keyUnknown`
   * if the key that signed it is not one of this process's. A valid one names the key it is
   * claimed under (a solution counts for one message).
   */
  async check(payload: unknown): Promise<ProofCheck> {
    if (payload === undefined || payload === '') return { verdict: 'missing' }
    const parsed = ProofPayloadSchema.safeParse(payload)
    if (!parsed.success) return { verdict: 'invalid' }
    const { challenge, solution } = parsed.data
    const verify = (key: TokenKey) =>
      verifySolution({ challenge, solution, deriveKey, ...signingSecrets(key) })
    const id = challenge.parameters.data?.keyId
    if (id !== undefined) {
      const key = this.#keys.byId(id)
      if (!key) return { verdict: 'keyUnknown' }
      if (!(await verify(key)).verified) return { verdict: 'invalid' }
    } else {
      // A challenge of the release before key ids names none: each key is tried. One whose
      // signature holds (or that expired before it was looked at) is a known key's.
      let isKnown = false
      let isVerified = false
      for (const key of this.#keys.all()) {
        const result = await verify(key)
        isVerified = result.verified
        if (isVerified) break
        if (result.expired || result.invalidSignature === false) isKnown = true
      }
      if (!isVerified) return { verdict: isKnown ? 'invalid' : 'keyUnknown' }
    }
    return {
      verdict: 'valid',
      claimKey: `proof:${challenge.parameters.nonce}`,
      expiresAt: challenge.parameters.expiresAt * 1000,
    }
  }
}
