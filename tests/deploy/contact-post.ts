/**
 * Sends one contact message to a running site as a person's browser does
 * (docs/contact.md#spam-defence): the form's token and challenge first, the challenge solved
 * (altcha-lib, the same PBKDF2 search as the browser's workers), the message after the token's
 * minimum age. Prints the answer's status code. `node tests/deploy/contact-post.ts
 * http://127.0.0.1:18500`
 */
import { setTimeout as sleep } from 'node:timers/promises'
import { loadConfig } from '#server/config.ts'
import type { ProofChallenge } from '#shared/proof-of-work.ts'
import { solveProof } from '#tests/helpers/form-token.ts'

const base = process.argv[2]
if (!base) throw new Error('usage: contact-post.ts <base URL>')
const started = Date.now()
const grant = (await (
  await fetch(`${base}/api/contact/token?form=contact&locale=en`, {
    signal: AbortSignal.timeout(30_000),
  })
).json()) as { token: string; challenge: ProofChallenge }
const proof = await solveProof(grant.challenge)
await sleep(Math.max(0, loadConfig({}).CONTACT_TOKEN_MIN_AGE + 1_000 - (Date.now() - started)))
const response = await fetch(`${base}/api/contact`, {
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    service: 'cloud',
    message: 'A message stored in the outbox volume.',
    token: grant.token,
    proof,
  }),
  signal: AbortSignal.timeout(30_000),
})
console.log(response.status)
