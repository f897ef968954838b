import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { ProofChallenge } from '#shared/proof-of-work.ts'
import {
  PERSON_PAUSE_MS,
  personProof,
  personToken,
  solveProof,
  withToken,
} from '#tests/helpers/form-token.ts'
import { hasRedisServer, REDIS_SERVER, startRedis } from '#tests/helpers/redis.ts'
import { startSmtpServer } from '#tests/helpers/smtp.ts'
import { NGINX, startCluster } from './cluster.ts'

// Several replicas for real: app processes (`node server/main.ts`, the production build)
// behind nginx as a round-robin balancer, one redis-server with AOF, the loopback SMTP server.

const MESSAGE = {
  name: 'Katarzyna Test',
  email: 'replicas@example.pl',
  service: 'managed',
  message: 'A message sent through the balancer to one of several replicas.',
  locale: 'de',
}

type Answer = { status: number; id?: string }

async function submit(base: string, id: string, index: number): Promise<Answer> {
  try {
    const response = await fetch(`${base}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(
        await withToken({ ...MESSAGE, id, message: `${MESSAGE.message} #${index}` }),
      ),
      // Only against a hang: an answer comes in milliseconds on an idle machine, but a busy
      // one (CI's two cores shared with other jobs) must not turn a slow answer into none.
      signal: AbortSignal.timeout(30_000),
    })
    const body = (await response.json().catch(() => ({}))) as { id?: string }
    return { status: response.status, id: body.id }
  } catch {
    return { status: 0 }
  }
}

/**
 * Like the form: the same message and id again until the site says it was accepted. Until a
 * deadline, not for a number of tries: while replicas and Redis restart (slower on a busy
 * machine) every try is refused at once.
 */
async function submitUntilAccepted(base: string, id: string, index: number, timeoutMs = 60_000) {
  const started = Date.now()
  for (let attempt = 1; Date.now() - started < timeoutMs; attempt++) {
    const answer = await submit(base, id, index)
    if (answer.status === 202) return attempt
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  throw new Error(`submission ${index} was not accepted within ${timeoutMs} ms`)
}

async function inParallel<T>(items: T[], limit: number, work: (item: T) => Promise<void>) {
  const queue = [...items]
  await Promise.all(
    Array.from({ length: limit }, async () => {
      for (let item = queue.shift(); item !== undefined; item = queue.shift()) await work(item)
    }),
  )
}

/** Waits until `check` holds (generous bounds: it returns as soon as it does); the ms waited. */
async function until(check: () => boolean, timeoutMs: number) {
  const started = Date.now()
  while (!check()) {
    if (Date.now() - started > timeoutMs) throw new Error('condition not reached in time')
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  return Date.now() - started
}

const missing = [!hasRedisServer() && REDIS_SERVER, !NGINX && 'nginx'].filter(Boolean)
if (missing.length > 0) {
  console.warn(`Skipping the replica tests: missing ${missing.join(', ')} (apt-get install)`)
}

describe.skipIf(missing.length > 0)('three replicas behind a balancer, one Redis', () => {
  let redis: Awaited<ReturnType<typeof startRedis>>
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>
  let cluster: Awaited<ReturnType<typeof startCluster>>
  /** What beforeAll started, stopped in reverse order even if a later start failed. */
  const cleanups: (() => Promise<void>)[] = []

  beforeAll(async () => {
    redis = await startRedis({ durable: true })
    cleanups.push(() => redis.dispose())
    smtp = await startSmtpServer()
    cleanups.push(() => smtp.stop())
    cluster = await startCluster({
      size: 3,
      env: {
        REDIS_URL: redis.url,
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Website <website@modernwerk.example>',
        MAIL_TO: 'sales@modernwerk.example',
        CONTACT_RATE_MAX: '10000',
      },
    })
    cleanups.push(() => cluster.stop())
  })

  afterAll(async () => {
    for (const cleanup of cleanups.reverse()) await cleanup()
  })

  function deliveredIds() {
    return smtp.received.map(({ mail }) => mail.headers.get('x-contact-id') as string)
  }

  it('200 submissions spread over the replicas arrive exactly once each', async () => {
    const ids: string[] = Array.from({ length: 200 }, () => crypto.randomUUID())
    let accepted = 0
    await inParallel(
      ids.map((id, index) => ({ id, index })),
      10,
      async ({ id, index }) => {
        const answer = await submit(cluster.url, id, index)
        expect(answer).toEqual({ status: 202, id })
        accepted++
      },
    )
    await until(() => smtp.received.length >= ids.length, 120_000)
    await new Promise((resolve) => setTimeout(resolve, 1_000)) // no late duplicates
    const delivered = deliveredIds()
    const duplicates = delivered.length - new Set(delivered).size
    const lost = ids.filter((id) => !delivered.includes(id)).length
    console.log(
      `replicas: submitted ${ids.length}, accepted ${accepted}, delivered ${new Set(delivered).size}, duplicates ${duplicates}, lost ${lost}`,
    )
    expect(lost).toBe(0)
    expect(duplicates).toBe(0)
    const contactIds = deliveredIds()
    expect(smtp.received.map(({ mail }) => mail.messageId)).toEqual(
      contactIds.map((id) => `<${id}@modernwerk.example>`),
    )
  })

  // Messages wait in retries whose delays double from 5 s while SMTP is down: the longer a busy
  // machine makes the churn, the later the next attempt once SMTP is back.
  it('SMTP down, replicas killed and replaced, Redis restarted: nothing accepted is lost', async () => {
    smtp.received.length = 0
    await smtp.stop()
    const ids: string[] = Array.from({ length: 90 }, () => crypto.randomUUID())
    let retries = 0
    const submitting = inParallel(
      ids.map((id, index) => ({ id, index })),
      6,
      async ({ id, index }) => {
        retries += (await submitUntilAccepted(cluster.url, id, index)) - 1
      },
    )
    // Meanwhile: each replica killed with SIGKILL and replaced, one after the other, and the
    // Redis node crashed and restarted from its append-only file once.
    for (let index = 0; index < 3; index++) {
      await new Promise((resolve) => setTimeout(resolve, 300))
      await cluster.kill(index)
      await new Promise((resolve) => setTimeout(resolve, 200))
      await cluster.start(index)
      if (index === 1) {
        await redis.stop('SIGKILL')
        await new Promise((resolve) => setTimeout(resolve, 300))
        await redis.start()
      }
    }
    await submitting
    expect(smtp.received).toHaveLength(0)

    await smtp.start()
    const waited = await until(() => new Set(deliveredIds()).size >= ids.length, 180_000)
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    const delivered = deliveredIds()
    const unique = new Set(delivered)
    const lost = ids.filter((id) => !unique.has(id)).length
    const duplicates = delivered.length - unique.size
    console.log(
      `outage and churn: submitted ${ids.length}, accepted ${ids.length} (after ${retries} repeated requests), delivered ${unique.size} within ${waited} ms of SMTP's return, duplicates ${duplicates}, lost ${lost}`,
    )
    expect(lost).toBe(0)
    // No delivery was in flight while replicas died (SMTP was down), so none can repeat.
    expect(duplicates).toBe(0)
    expect([...unique].every((id) => ids.includes(id))).toBe(true)
  }, 300_000)

  it('a replica killed in the middle of a delivery: another one delivers the message', async () => {
    smtp.received.length = 0
    // Every replica but the first stops; the SMTP server holds the next message's data.
    await cluster.kill(1, 'SIGTERM')
    await cluster.kill(2, 'SIGTERM')
    let release = () => {}
    smtp.holdNext(new Promise<void>((resolve) => (release = resolve)))
    const id = crypto.randomUUID()
    expect((await submit(cluster.instanceUrl(0), id, 0)).status).toBe(202)
    await until(() => smtp.isHolding(), 30_000)
    await cluster.kill(0) // SIGKILL while the SMTP transaction is open
    release()
    const started = Date.now()
    await cluster.start(1)
    // The dead replica's lock on the job runs out (10 s), the next stalled-job check (every
    // 5 s) hands the job on: about 15 s on an idle machine, the rest is margin.
    await until(() => deliveredIds().includes(id), 60_000)
    console.log(`takeover: delivered by another replica ${Date.now() - started} ms after the kill`)
    await cluster.start(0)
    await cluster.start(2)
  })

  it('a form token or a solution used on one replica is refused as a replay on another', async () => {
    smtp.received.length = 0
    const token = personToken('contact', MESSAGE.locale)
    const proof = await personProof()
    const send = (index: number, message: string, sent: { token: string; proof: string }) =>
      fetch(`${cluster.instanceUrl(index)}/api/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...MESSAGE, id: crypto.randomUUID(), message, ...sent }),
        signal: AbortSignal.timeout(30_000),
      })
    const first = `${MESSAGE.message} First use of the token.`
    const replayed = `${MESSAGE.message} The same token again, on another replica.`
    const resolved = `${MESSAGE.message} The same solution with a new token, on a third.`
    expect((await send(0, first, { token, proof })).status).toBe(202)
    // Answered like a success (a bot learns nothing), and counted by the replica that refused.
    expect((await send(1, replayed, { token, proof: await personProof() })).status).toBe(202)
    const refusedBy = async (index: number) =>
      (await (await fetch(cluster.metricsUrl(index))).text()).includes(
        'contact_rejected_total{reason="replay"} 1',
      )
    expect(await refusedBy(1)).toBe(true)
    const newToken = personToken('contact', MESSAGE.locale)
    expect((await send(2, resolved, { token: newToken, proof })).status).toBe(202)
    expect(await refusedBy(2)).toBe(true)
    await until(() => smtp.received.some(({ mail }) => mail.text?.includes(first)), 60_000)
    await new Promise((resolve) => setTimeout(resolve, 1_000))
    const leaked = smtp.received.filter(
      ({ mail }) => mail.text?.includes(replayed) || mail.text?.includes(resolved),
    )
    expect(leaked).toEqual([])
  })

  it('without CONTACT_TOKEN_SECRET the replicas share the key Redis keeps: a form one served, another accepts', async () => {
    smtp.received.length = 0
    // As `npm start` with REDIS_URL, or a chart whose Secret lacks the key.
    const shared = await startCluster({
      size: 2,
      // The budget of the tests above is kept in this Redis too.
      env: {
        REDIS_URL: redis.url,
        SMTP_URL: smtp.url,
        CONTACT_TOKEN_SECRET: '',
        CONTACT_RATE_MAX: '10000',
      },
    })
    try {
      const grant = (await (
        await fetch(`${shared.instanceUrl(0)}/api/contact/token?form=contact&locale=de`)
      ).json()) as { token: string; challenge: ProofChallenge }
      const proof = await solveProof(grant.challenge)
      // The token's minimum age, as a person's typing takes.
      await new Promise((resolve) => setTimeout(resolve, PERSON_PAUSE_MS))
      const message = `${MESSAGE.message} Sent to the other replica with the shared key.`
      const response = await fetch(`${shared.instanceUrl(1)}/api/contact`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ ...MESSAGE, message, token: grant.token, proof }),
        signal: AbortSignal.timeout(30_000),
      })
      expect(response.status).toBe(202)
      await until(() => smtp.received.some(({ mail }) => mail.text?.includes(message)), 60_000)
    } finally {
      await shared.stop()
    }
  })

  it('the contact rate limit holds across the replicas', async () => {
    // A Redis of its own: the budget of the tests above is long spent.
    const budget = await startRedis()
    const limited = await startCluster({
      size: 2,
      env: { REDIS_URL: budget.url, CONTACT_RATE_MAX: '4', CONTACT_RATE_WINDOW: '10 minutes' },
    })
    try {
      const statuses: number[] = []
      for (let index = 0; index < 6; index++) {
        statuses.push((await submit(limited.url, crypto.randomUUID(), index)).status)
      }
      // nginx alternates between the two replicas; the budget of 4 is one budget.
      expect(statuses).toEqual([202, 202, 202, 202, 429, 429])
    } finally {
      await limited.stop()
      await budget.dispose()
    }
  })
})
