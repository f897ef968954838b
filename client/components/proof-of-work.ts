import { solveChallengeWorkers } from 'altcha/lib'
import pbkdf2WorkerUrl from 'altcha/workers/pbkdf2?worker&url'
import { trustedWorkerUrl } from '../runtime/trusted-types.ts'
import { encodeProof, type ProofChallenge } from '#shared/proof-of-work.ts'

/**
 * The proof of work's solver (docs/contact.md#spam-defence), loaded with the form's requests when a
 * visitor starts on a form: the altcha package's solver and its PBKDF2 worker, a file of this
 * site's own. The worker is created from the page's origin even when a CDN serves the
 * scripts (a worker must be same-origin; `worker-src 'self'`), and never from a blob.
 */

/** Longer than any device a person uses needs (docs/contact.md#spam-defence). */
const SOLVE_TIMEOUT_MS = 60_000

/** At most four workers: the work is small, and phones' efficiency cores gain little. */
function concurrency(): number {
  return Math.min(4, Math.max(1, navigator.hardwareConcurrency || 2))
}

function createWorker(): Worker {
  const { pathname, search } = new URL(pbkdf2WorkerUrl, import.meta.url)
  // A TrustedScriptURL is what `new Worker` takes under the site's Trusted Types policy.
  return new Worker(trustedWorkerUrl(new URL(pathname + search, location.origin)) as URL, {
    type: 'module',
    name: 'proof-of-work',
  })
}

/**
 * Solves a challenge in Web Workers; resolves with the payload the form posts, or rejects
 * (no workers or no Web Crypto in this browser, a timeout, an abort).
 */
export async function solveProof(challenge: ProofChallenge, signal?: AbortSignal): Promise<string> {
  const controller = new AbortController()
  signal?.addEventListener('abort', () => controller.abort(), { once: true })
  const solution = await solveChallengeWorkers({
    challenge,
    concurrency: concurrency(),
    controller,
    createWorker,
    timeout: SOLVE_TIMEOUT_MS,
  })
  if (!solution) throw new Error('no solution')
  return encodeProof(challenge, solution)
}
