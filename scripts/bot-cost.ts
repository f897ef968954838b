// `npm run bench:bot`: what a bot pays for each message that reaches the inbox
// (docs/contact.md#what-a-bot-pays). Three ways to post, each against a production server of
// its own with the default settings, from one address within one rate-limit window, six
// messages each (one more than the default limit lets through):
// - the page's token posted as JSON with a forged `Sec-Fetch-Site` (no proof of work);
// - the page's token posted as the form without JavaScript posts it, the header forged too;
// - what the form's script does: a token of its own, its proof of work solved here (one core
//   of this machine, altcha-lib as the tests solve it), then the post.
// Prints per way: posts, messages accepted for the inbox (`contact_submissions_total`), held
// back or refused, requests per accepted message, and the bot's CPU seconds per accepted message
// (what solving cost this process). Needs `npm run build` first.
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { requireBuild, startProductionServer, stop } from './lib/processes.ts'
import { solveProof } from '#tests/helpers/form-token.ts'
import { sampleIn } from '#tests/helpers/metrics.ts'
import type { ProofChallenge } from '#shared/proof-of-work.ts'

requireBuild()

const POSTS = 6
/** Longer than the minimum age of a token (3 s by default): the bot waits like a person. */
const TOKEN_WAIT_MS = 3_200

const message = (index: number) => ({
  name: `Jan Kowalski ${index}`,
  email: `jan.kowalski${index}@example.pl`,
  service: 'cloud',
  subject: `Migracja ERP ${index}`,
  message: `Dzień dobry, planujemy migrację naszego systemu ERP (${index}, ${Date.now()}).`,
  locale: 'en',
})

type Way = {
  name: string
  /** Sends the posts; returns the requests made and the CPU seconds spent on proofs. */
  run: (base: string) => Promise<{ requests: number; cpuSeconds: number }>
}

async function pageToken(base: string): Promise<string> {
  const page = await (await fetch(`${base}/contact`)).text()
  const token = /name="token" value="([^"]+)"/.exec(page)?.[1]
  if (!token) throw new Error('no token in the page')
  await new Promise((resolve) => setTimeout(resolve, TOKEN_WAIT_MS))
  return token
}

const FORGED = { 'sec-fetch-site': 'same-origin' }

const WAYS: Way[] = [
  {
    name: "the page's token, posted as JSON",
    async run(base) {
      const token = await pageToken(base)
      for (let index = 0; index < POSTS; index++) {
        await fetch(`${base}/api/contact`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...FORGED },
          body: JSON.stringify({ ...message(index), form: 'contact', token }),
        })
      }
      return { requests: 1 + POSTS, cpuSeconds: 0 }
    },
  },
  {
    name: "the page's token, posted as a form",
    async run(base) {
      const token = await pageToken(base)
      for (let index = 0; index < POSTS; index++) {
        await fetch(`${base}/api/contact`, {
          method: 'POST',
          redirect: 'manual',
          headers: { 'content-type': 'application/x-www-form-urlencoded', ...FORGED },
          body: new URLSearchParams({ ...message(index), form: 'contact', token }).toString(),
        })
      }
      return { requests: 1 + POSTS, cpuSeconds: 0 }
    },
  },
  {
    name: 'a token of its own, its proof solved',
    async run(base) {
      const grants: { token: string; challenge: ProofChallenge }[] = []
      for (let index = 0; index < POSTS; index++) {
        const response = await fetch(`${base}/api/contact/token?form=contact&locale=en`)
        grants.push((await response.json()) as { token: string; challenge: ProofChallenge })
      }
      await new Promise((resolve) => setTimeout(resolve, TOKEN_WAIT_MS))
      let cpu = 0
      for (const [index, grant] of grants.entries()) {
        const before = process.cpuUsage()
        const proof = await solveProof(grant.challenge)
        const used = process.cpuUsage(before)
        cpu += (used.user + used.system) / 1e6
        await fetch(`${base}/api/contact`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...FORGED },
          body: JSON.stringify({ ...message(index), form: 'contact', token: grant.token, proof }),
        })
      }
      return { requests: 2 * POSTS, cpuSeconds: cpu }
    },
  },
]

console.log(`${POSTS} posts per way, one address, one window of the default rate limit`)
for (const way of WAYS) {
  const outbox = mkdtempSync(join(tmpdir(), 'modernwerk-bot-cost-'))
  const server = await startProductionServer({ OUTBOX_DIR: outbox })
  try {
    const { requests, cpuSeconds } = await way.run(server.base)
    const metrics = await (await fetch(server.metricsUrl)).text()
    const count = (outcome: string) =>
      sampleIn(metrics, `contact_submissions_total{outcome="${outcome}"}`) ?? 0
    const accepted = count('accepted')
    const cost =
      accepted > 0
        ? `${(requests / accepted).toFixed(1)} requests and ${(cpuSeconds / accepted).toFixed(2)} CPU seconds per accepted message`
        : `none accepted for ${requests} requests`
    console.log(
      `${way.name}: ${accepted} of ${POSTS} accepted for the inbox, ${count('spam')} held back as spam, ${count('rateLimited')} rate limited; ${cost}`,
    )
  } finally {
    await stop(server.child)
    rmSync(outbox, { recursive: true, force: true })
  }
}
