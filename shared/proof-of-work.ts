import * as z from 'zod/mini'

/**
 * The proof of work's wire format (docs/contact.md#spam-defence): the challenge the server hands
 * out with a script's token, and the payload the form posts back in `PROOF_FIELD`
 * (`shared/contact-fields.ts`). ALTCHA's
 * format (altcha-lib on the server, the altcha package's solver in the browser): the payload
 * is the challenge and its solution as base64-encoded JSON, one opaque string.
 */
export const PROOF_ALGORITHM = 'PBKDF2/SHA-256'

const hex = (max: number) => z.string().check(z.regex(/^[0-9a-f]+$/), z.maxLength(max))
const count = z.number().check(z.int(), z.nonnegative())

export const ProofChallengeSchema = z.object({
  parameters: z.object({
    algorithm: z.literal(PROOF_ALGORITHM),
    cost: count,
    expiresAt: count,
    keyLength: count,
    keyPrefix: hex(128),
    keySignature: hex(128),
    nonce: hex(64),
    salt: hex(64),
    /**
     * The key that signed it, by id (server/services/spam/token-keys.ts), inside the signed
     * parameters. Optional: challenges of the release before key ids have none.
     */
    data: z.optional(z.object({ keyId: z.string().check(z.regex(/^[\w-]{8}$/)) })),
  }),
  signature: hex(128),
})

export type ProofChallenge = z.output<typeof ProofChallengeSchema>

const ProofSolutionSchema = z.object({
  counter: count,
  derivedKey: hex(128),
  /** How long the browser took, in ms (ALTCHA's payload has it; the tests read it). */
  time: z.optional(z.number().check(z.nonnegative())),
})

export type ProofSolution = z.output<typeof ProofSolutionSchema>

/** The payload: at most a few hundred bytes; anything longer is not one of ours. */
const MAX_PAYLOAD = 2048

/** The payload a post carries, decoded and checked for shape (not yet for truth). */
export const ProofPayloadSchema = z.pipe(
  z.string().check(z.maxLength(MAX_PAYLOAD), z.regex(/^[A-Za-z0-9+/]+={0,2}$/)),
  z.pipe(
    z.transform((payload: string, context) => {
      try {
        return JSON.parse(atob(payload)) as unknown
      } catch {
        context.issues.push({ code: 'custom', message: 'invalid', input: payload })
        return z.NEVER
      }
    }),
    z.object({ challenge: ProofChallengeSchema, solution: ProofSolutionSchema }),
  ),
)

/** The payload the form posts: what the server gave and what the browser found. */
export function encodeProof(challenge: ProofChallenge, solution: ProofSolution): string {
  return btoa(
    JSON.stringify({
      challenge,
      solution: { counter: solution.counter, derivedKey: solution.derivedKey, time: solution.time },
    }),
  )
}
