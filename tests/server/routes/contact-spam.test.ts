import { createHmac } from 'node:crypto'
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { issueToken } from '#server/services/spam/form-token.ts'
import { tokenKey } from '#server/services/spam/token-keys.ts'
import {
  MAX_LINKS,
  suspectReasons,
  type SuspectReason,
} from '#server/services/spam/spam-signals.ts'
import { PROOF_COST } from '#server/services/spam/proof-of-work.ts'
import type { ContactMessage } from '#shared/contact-schema.ts'
import { PROOF_ALGORITHM, type ProofChallenge } from '#shared/proof-of-work.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import { eventually } from '#tests/helpers/eventually.ts'
import {
  personProof,
  personToken,
  solveProof,
  TEST_TOKEN_SECRET,
  withToken,
} from '#tests/helpers/form-token.ts'
import { get, html, texts } from '#tests/helpers/locales.ts'
import { sampleIn } from '#tests/helpers/metrics.ts'
import { freePort } from '#tests/helpers/net.ts'
import { startSmtpServer } from '#tests/helpers/smtp.ts'

/**
 * The spam defence against the real server over real HTTP (docs/contact.md#spam-defence): what is
 * refused or dropped never reaches the outbox or the SMTP server and is counted by reason;
 * what only looks like spam is delivered, marked.
 */

/** A text of the locale files, as a string. */
const text = (locale: 'en' | 'de' | 'pl', namespace: string, path: string) =>
  String(get(texts(locale, namespace), path))

const VALID = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  service: 'cloud',
  subject: 'Moving our ERP to Germany',
  message: 'We would like to move our ERP servers to a German data centre this year.',
  locale: 'en',
}

let smtp: Awaited<ReturnType<typeof startSmtpServer>>
let app: FastifyInstance
let origin: string

beforeAll(async () => {
  smtp = await startSmtpServer()
})

afterAll(async () => {
  await smtp.stop()
})

afterEach(async () => {
  await app.close()
  smtp.received.length = 0
})

async function startApp(env: Record<string, string> = {}) {
  // APP_BASE_URL is the origin the site is served from: here the port the app listens on.
  const port = await freePort()
  origin = `http://127.0.0.1:${port}`
  app = await buildTestApp(
    {
      SMTP_URL: smtp.url,
      MAIL_FROM: 'Website <website@modernwerk.example>',
      MAIL_TO: 'leads@modernwerk.example',
      APP_BASE_URL: origin,
      CONTACT_RATE_MAX: '1000',
      ...env,
    },
    { deliveryPollMs: 100, firstRetryMs: 100 },
  )
  await app.listen({ port, host: '127.0.0.1' })
}

/** A post as a person's form sends it: with a token issued a while ago, unless `body` has one. */
async function post(body: Record<string, string>, headers: Record<string, string>, asForm = false) {
  const signed = 'token' in body ? body : await withToken(body)
  return fetch(`${origin}/api/contact`, {
    method: 'POST',
    redirect: 'manual',
    headers: {
      'content-type': asForm ? 'application/x-www-form-urlencoded' : 'application/json',
      ...headers,
    },
    body: asForm ? new URLSearchParams(signed).toString() : JSON.stringify(signed),
  })
}

async function metric(sample: string): Promise<number | undefined> {
  return sampleIn(await (await fetch(`${origin}/metrics`)).text(), sample)
}

/** Long enough for a dropped post to have reached SMTP if anything had let it through. */
async function nothingDelivered() {
  await new Promise((resolve) => setTimeout(resolve, 500))
  expect(smtp.received).toHaveLength(0)
  expect(await app.contact.outbox.size()).toBe(0)
}

/** The reasons of what the quarantine holds, oldest first (docs/contact.md#quarantine). */
async function quarantined(): Promise<string[]> {
  return ((await app.contact.quarantine?.list()) ?? []).map(({ reason }) => reason)
}

/** A dropped post: nothing delivered, kept in the quarantine with its reason and text. */
async function droppedIntoQuarantine(reason: string, message = VALID.message) {
  await nothingDelivered()
  const entries = (await app.contact.quarantine?.list()) ?? []
  expect(entries.map((entry) => entry.reason)).toEqual([reason])
  expect(entries[0]?.entry.message.message).toBe(message)
}

describe('posts from another site', () => {
  it.each([
    ['Sec-Fetch-Site: cross-site', { 'sec-fetch-site': 'cross-site' }],
    ['Sec-Fetch-Site: same-site', { 'sec-fetch-site': 'same-site' }],
    ['a foreign Origin', { origin: 'https://spam.example' }],
  ])('are refused with 403 and counted (%s)', async (_case, headers) => {
    await startApp()
    const response = await post(VALID, headers)
    expect(response.status).toBe(403)
    expect(await response.json()).toEqual({ status: 'foreign' })
    expect(await metric('contact_rejected_total{reason="foreign"}')).toBe(1)
    await nothingDelivered()
  })

  it('a plain post from another site gets the form again, saying why, with the text kept', async () => {
    await startApp()
    const form = { ...VALID, locale: 'de', form: 'contact' }
    const response = await post(form, { 'sec-fetch-site': 'cross-site' }, true)
    expect(response.status).toBe(403)
    const page = await response.text()
    expect(page).toContain(html(get(texts('de', 'common'), 'form.status.foreign'), 'de'))
    expect(page).toContain(VALID.message)
    await nothingDelivered()
  })

  it.each([
    ['the browser says same-origin', () => ({ 'sec-fetch-site': 'same-origin' })],
    ['a browser without Sec-Fetch-Site sends our Origin', () => ({ origin })],
    ['Origin is "null" (a privacy-restricted context)', () => ({ origin: 'null' })],
    ['no browser headers at all (the other layers decide)', () => ({})],
  ])('are accepted when %s', async (_case, headers: () => Record<string, string>) => {
    await startApp()
    const response = await post(VALID, headers())
    expect(response.status).toBe(202)
    await eventually(() => smtp.received.length === 1)
    expect(await metric('contact_rejected_total{reason="foreign"}')).toBe(0)
  })
})

/** A token made with the app's key, issued `agoMs` ago. */
const issued = (agoMs: number, form: 'contact' | 'home' = 'contact', locale = 'en') =>
  issueToken(tokenKey(Buffer.from(TEST_TOKEN_SECRET)), {
    kind: 'script',
    form,
    locale: locale as 'en',
    issuedAt: Date.now() - agoMs,
  })

describe('the form token', () => {
  it.each([
    ['no token', () => '', 'tokenMissing'],
    ['a token in another shape', () => 'x'.repeat(80), 'tokenForged'],
    [
      'a token naming this site’s key, signed with another',
      () => {
        const forged = personToken('contact', 'en', 'another-key-of-at-least-thirty-two-chars')
        return forged.replace(/^2\.[\w-]{8}\./, `2.${tokenKey(Buffer.from(TEST_TOKEN_SECRET)).id}.`)
      },
      'tokenForged',
    ],
    [
      'a signature changed in one place',
      () => personToken('contact', 'en').replace(/.$/, (last) => (last === 'A' ? 'B' : 'A')),
      'tokenForged',
    ],
    ['a token of the home form', () => personToken('home', 'en'), 'tokenForged'],
    ['a token of the German form', () => personToken('contact', 'de'), 'tokenForged'],
    ['a token issued a second ago (a bot, no person is that fast)', () => issued(1_000), 'tooFast'],
  ])(
    '%s: answered like a success, dropped, counted and quarantined',
    async (_case, token, reason) => {
      await startApp()
      const response = await post({ ...VALID, token: token() }, {})
      expect(response.status).toBe(202)
      expect(await response.json()).toMatchObject({ status: 'accepted' })
      expect(await metric(`contact_rejected_total{reason="${reason}"}`)).toBe(1)
      expect(await metric(`contact_quarantined_total{reason="${reason}"}`)).toBe(1)
      await droppedIntoQuarantine(reason)
    },
  )

  it.each([
    [
      'a token of a key this site does not have (rotated out, or lost with its data)',
      () => personToken('contact', 'en', 'another-key-of-at-least-thirty-two-chars'),
    ],
    [
      'a token of the release before key ids, signed with another key',
      () =>
        personToken('contact', 'en', 'another-key-of-at-least-thirty-two-chars').replace(
          /^2\.[\w-]{8}\./,
          '1.',
        ),
    ],
  ])(
    '%s: answered like an expired one, and the message goes with the new token',
    async (_case, token) => {
      await startApp()
      const response = await post({ ...VALID, token: token() }, {})
      expect(response.status).toBe(409)
      const answer = (await response.json()) as {
        status: string
        token: string
        challenge: ProofChallenge
      }
      expect(answer.status).toBe('expired')
      expect(await metric('contact_rejected_total{reason="keyUnknown"}')).toBe(1)
      expect(await metric('contact_submissions_total{outcome="expired"}')).toBe(1)
      expect(await quarantined()).toEqual([])
      await nothingDelivered()
      const proof = await solveProof(answer.challenge)
      expect((await post({ ...VALID, token: answer.token, proof }, {})).status).toBe(202)
      await eventually(() => smtp.received.length === 1)
    },
  )

  it('a token of the release before key ids, signed with this site’s key, is good', async () => {
    await startApp()
    const legacy = personToken('contact', 'en').replace(/^2\.[\w-]{8}\./, '1.')
    const token = `${legacy.slice(0, legacy.lastIndexOf('.'))}.${createHmac(
      'sha256',
      TEST_TOKEN_SECRET,
    )
      .update(legacy.slice(0, legacy.lastIndexOf('.')))
      .digest('base64url')}`
    expect((await post({ ...VALID, token, proof: await personProof() }, {})).status).toBe(202)
    await eventually(() => smtp.received.length === 1)
  })

  it('expired after CONTACT_TOKEN_MAX_AGE: the visitor is told and sends again at once with the new token', async () => {
    await startApp()
    const response = await post({ ...VALID, token: issued(7 * 3_600_000) }, {})
    expect(response.status).toBe(409)
    const answer = (await response.json()) as {
      status: string
      token: string
      challenge: ProofChallenge
    }
    expect(answer.status).toBe('expired')
    expect(await metric('contact_rejected_total{reason="tokenExpired"}')).toBe(1)
    await nothingDelivered()
    // No wait: the new token is already as old as a person's; its challenge is solved while
    // the visitor reads the message.
    const proof = await solveProof(answer.challenge)
    expect((await post({ ...VALID, token: answer.token, proof }, {})).status).toBe(202)
    await eventually(() => smtp.received.length === 1)
  })

  it('expired in a plain post: the form again, saying so, the text kept, and a new token in it', async () => {
    await startApp()
    const form = {
      ...VALID,
      locale: 'pl',
      form: 'contact',
      token: issued(7 * 3_600_000, 'contact', 'pl'),
    }
    const response = await post(form, {}, true)
    expect(response.status).toBe(409)
    const page = await response.text()
    expect(page).toContain(html(get(texts('pl', 'common'), 'form.status.expired'), 'pl'))
    expect(page).toContain(VALID.message)
    const token = /name="token" value="([^"]+)"/.exec(page)?.[1] ?? ''
    expect(token).not.toBe(form.token)
    // A page's token, as the form without JavaScript has: sent again from the browser.
    const again = await post({ ...form, token }, { 'sec-fetch-site': 'same-origin' }, true)
    expect(again.status).toBe(303)
    await eventually(() => smtp.received.length === 1)
  })

  it('is good for one message: another post with it is dropped, the same submission again is not', async () => {
    await startApp()
    const token = personToken('contact', 'en')
    const first = { ...VALID, token, proof: await personProof(), id: crypto.randomUUID() }
    expect((await post(first, {})).status).toBe(202)
    await eventually(() => smtp.received.length === 1)
    // Another message with the same token: a replay.
    const replay = await post(
      { ...first, id: crypto.randomUUID(), message: `${VALID.message} Again.` },
      {},
    )
    expect(replay.status).toBe(202)
    expect(await metric('contact_rejected_total{reason="replay"}')).toBe(1)
    // The same submission (its id) sent again, as the form does after an error: not a replay.
    expect((await post(first, {})).status).toBe(202)
    expect(await metric('contact_rejected_total{reason="replay"}')).toBe(1)
    expect(
      smtp.received.map(({ mail }) => mail.text).filter((text) => text?.includes('Again.')),
    ).toEqual([])
  })

  it('is good for one message even when the client keeps its submission id fixed', async () => {
    await startApp()
    const token = personToken('contact', 'en')
    const proof = await personProof()
    const id = crypto.randomUUID()
    for (const ending of ['', ' Second.', ' Third.']) {
      const response = await post(
        { ...VALID, message: `${VALID.message}${ending}`, token, proof, id },
        {},
      )
      expect(response.status).toBe(202)
    }
    expect(await metric('contact_rejected_total{reason="replay"}')).toBe(2)
    await eventually(() => smtp.received.length === 1)
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(smtp.received).toHaveLength(1)
    expect(await quarantined()).toEqual(['replay', 'replay'])
  })

  it('stays used across a restart: a replay refused before it is refused after it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'modernwerk-replay-'))
    await startApp({ OUTBOX_DIR: dir })
    const used = { ...VALID, token: personToken('contact', 'en'), proof: await personProof() }
    expect((await post(used, {})).status).toBe(202)
    await eventually(() => smtp.received.length === 1)
    const replay = { ...used, message: `${VALID.message} Again.` }
    expect((await post(replay, {})).status).toBe(202)
    expect(await metric('contact_rejected_total{reason="replay"}')).toBe(1)
    await app.close()

    await startApp({ OUTBOX_DIR: dir })
    expect((await post({ ...replay, message: `${VALID.message} Once more.` }, {})).status).toBe(202)
    expect(await metric('contact_rejected_total{reason="replay"}')).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(smtp.received).toHaveLength(1)
    rmSync(dir, { recursive: true, force: true })
  })

  it('of a kept page counts only with a browser that says the post is this site’s: `Sec-Fetch-Site: none` does not', async () => {
    await startApp()
    const page = await (await fetch(`${origin}/contact`)).text()
    const token = /name="token" value="([^"]+)"/.exec(page)?.[1] ?? ''
    await new Promise((resolve) => setTimeout(resolve, 3_100))
    const form = { ...VALID, form: 'contact', token }
    expect((await post(form, { 'sec-fetch-site': 'none' }, true)).status).toBe(303)
    expect(await metric('contact_rejected_total{reason="noBrowser"}')).toBe(1)
    await droppedIntoQuarantine('noBrowser')
  })

  it('of a kept page serves everyone who saw that page, each message once', async () => {
    await startApp()
    const page = await (await fetch(`${origin}/de/contact`)).text()
    const token = /name="token" value="([^"]+)"/.exec(page)?.[1] ?? ''
    // Issued when the page was rendered: as a person would, the test waits the minimum age.
    await new Promise((resolve) => setTimeout(resolve, 3_100))
    const form = { ...VALID, locale: 'de', form: 'contact', token }
    const browser = { 'sec-fetch-site': 'same-origin' }
    expect((await post(form, browser, true)).status).toBe(303)
    expect((await post({ ...form, name: 'Grace Hopper' }, browser, true)).status).toBe(303)
    await eventually(() => smtp.received.length === 2)
    // The same plain post twice (a double click, a reload): one lead.
    expect((await post(form, browser, true)).status).toBe(303)
    expect(await metric('contact_rejected_total{reason="replay"}')).toBe(1)
    // A script that read the page and posts without a browser's headers: dropped.
    const scripted = { ...form, name: 'Bot Script', message: `${VALID.message} Scripted.` }
    expect((await post(scripted, {}, true)).status).toBe(303)
    expect(await metric('contact_rejected_total{reason="noBrowser"}')).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(smtp.received).toHaveLength(2)
    // Both drops kept in the quarantine, where a person's post a proxy stripped could be found.
    expect(await quarantined()).toEqual(['replay', 'noBrowser'])
  })

  it('of a kept page, posted by a script as JSON, is taken for spam: only the form without JavaScript relies on it alone', async () => {
    await startApp()
    const page = await (await fetch(`${origin}/contact`)).text()
    const token = /name="token" value="([^"]+)"/.exec(page)?.[1] ?? ''
    await new Promise((resolve) => setTimeout(resolve, 3_100))
    const browser = { 'sec-fetch-site': 'same-origin' }
    // Answered like a success, so a bot learns nothing; held back, never delivered.
    const response = await post({ ...VALID, form: 'contact', token }, browser)
    expect(response.status).toBe(202)
    expect(await metric('contact_rejected_total{reason="proofMissing"}')).toBe(1)
    await droppedIntoQuarantine('proofMissing')
  })

  it('of a kept page has a budget of 3 messages, whoever sends them; more are held back, not delivered', async () => {
    await startApp({ TRUST_PROXY: '127.0.0.1' })
    const page = await (await fetch(`${origin}/contact`)).text()
    const token = /name="token" value="([^"]+)"/.exec(page)?.[1] ?? ''
    await new Promise((resolve) => setTimeout(resolve, 3_100))
    // Four visitors (four addresses) of one kept page, each with a message of their own.
    const names = ['Ada Lovelace', 'Grace Hopper', 'Hedy Lamarr', 'Joan Clarke']
    for (const [index, name] of names.entries()) {
      const visitor = {
        'sec-fetch-site': 'same-origin',
        'x-forwarded-for': `203.0.113.${index + 1}`,
      }
      expect((await post({ ...VALID, name, form: 'contact', token }, visitor, true)).status).toBe(
        303,
      )
    }
    await eventually(() => smtp.received.length === 3)
    expect(await metric('contact_rejected_total{reason="pageBudget"}')).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(smtp.received).toHaveLength(3)
    // The fourth is kept for a person to see (the daily digest), its text whole.
    const entries = (await app.contact.quarantine?.list()) ?? []
    expect(entries.map((entry) => [entry.reason, entry.entry.message.name])).toEqual([
      ['pageBudget', 'Joan Clarke'],
    ])
  })

  it('of kept pages has a budget of 2 messages per address and window; the same post sent again spends none', async () => {
    await startApp()
    const key = tokenKey(Buffer.from(TEST_TOKEN_SECRET))
    // Three kept pages' tokens (say, three forms of the site), one visitor's address.
    const tokens = ['contact', 'home', 'contact'].map((form) =>
      issueToken(key, {
        kind: 'page',
        form: form as 'contact' | 'home',
        locale: 'en',
        issuedAt: Date.now() - 30_000,
      }),
    )
    const browser = { 'sec-fetch-site': 'same-origin' }
    const first = { ...VALID, form: 'contact', token: tokens[0] ?? '' }
    expect((await post(first, browser, true)).status).toBe(303)
    // A reload of the same post: one lead, and no second unit of the budget.
    expect((await post(first, browser, true)).status).toBe(303)
    const second = { ...VALID, name: 'Grace Hopper', form: 'home', token: tokens[1] ?? '' }
    expect((await post(second, browser, true)).status).toBe(303)
    await eventually(() => smtp.received.length === 2)
    const third = { ...VALID, name: 'Hedy Lamarr', form: 'contact', token: tokens[2] ?? '' }
    expect((await post(third, browser, true)).status).toBe(303)
    expect(await metric('contact_rejected_total{reason="pageBudget"}')).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(smtp.received).toHaveLength(2)
    expect(await quarantined()).toEqual(['replay', 'pageBudget'])
    // The script's form is not held to it: a token of its own with a solved proof.
    const scripted = { ...VALID, name: 'Joan Clarke', proof: await personProof() }
    expect((await post(scripted, {})).status).toBe(202)
    await eventually(() => smtp.received.length === 3)
  })

  it('is given to the form’s script fresh, never cached, for the form and language asked', async () => {
    await startApp()
    const response = await fetch(`${origin}/api/contact/token?form=home&locale=pl`)
    expect(response.status).toBe(200)
    expect(response.headers.get('cache-control')).toBe('no-store')
    const { token, challenge } = (await response.json()) as {
      token: string
      challenge: ProofChallenge
    }
    const { id } = tokenKey(Buffer.from(TEST_TOKEN_SECRET))
    expect(token.startsWith(`2.${id}.s.`)).toBe(true)
    expect(token).toMatch(/^2\.[\w-]{8}\.s\.[0-9a-z]+\.home\.pl\./)
    expect(challenge.parameters).toMatchObject({
      algorithm: PROOF_ALGORITHM,
      cost: PROOF_COST,
      data: { keyId: id },
    })
    expect((await fetch(`${origin}/api/contact/token?form=sales&locale=pl`)).status).toBe(400)
    expect((await fetch(`${origin}/api/contact/token?form=home`)).status).toBe(400)
  })
})

/** The challenge and solution of a payload, to change one thing in them. */
function decoded(payload: string): {
  challenge: ProofChallenge
  solution: Record<string, unknown>
} {
  return JSON.parse(atob(payload)) as never
}

const encoded = (value: unknown) => btoa(JSON.stringify(value))

describe('the proof of work', () => {
  it('solved from the challenge that came with the token: the message is delivered', async () => {
    await startApp()
    const grant = (await (
      await fetch(`${origin}/api/contact/token?form=contact&locale=en`)
    ).json()) as { token: string; challenge: ProofChallenge }
    const proof = await solveProof(grant.challenge)
    // The token's minimum age, as a person's typing takes.
    const token = personToken('contact', 'en')
    expect((await post({ ...VALID, token, proof }, {})).status).toBe(202)
    await eventually(() => smtp.received.length === 1)
    expect(await metric('contact_rejected_total{reason="proofMissing"}')).toBe(0)
    expect(await metric('contact_rejected_total{reason="proofInvalid"}')).toBe(0)
  })

  it.each([
    ['no solution with a script’s token', async () => '', 'proofMissing'],
    ['a payload that is not one', async () => 'bm90IGEgcHJvb2Y=', 'proofInvalid'],
    [
      'a wrong key',
      async () => {
        const { challenge, solution } = decoded(await personProof())
        return encoded({ challenge, solution: { ...solution, derivedKey: '00'.repeat(32) } })
      },
      'proofInvalid',
    ],
    [
      'a challenge made easier after it was signed',
      async () => {
        const { challenge, solution } = decoded(await personProof())
        const parameters = { ...challenge.parameters, cost: 1 }
        return encoded({ challenge: { ...challenge, parameters }, solution })
      },
      'proofInvalid',
    ],
    [
      'a challenge naming this site’s key, signed with another',
      async () => {
        const { challenge, solution } = decoded(
          await personProof('another-key-of-at-least-thirty-two-chars'),
        )
        const data = { keyId: tokenKey(Buffer.from(TEST_TOKEN_SECRET)).id }
        const parameters = { ...challenge.parameters, data }
        return encoded({ challenge: { ...challenge, parameters }, solution })
      },
      'proofInvalid',
    ],
    [
      'an expired challenge',
      async () => {
        const { challenge, solution } = decoded(await personProof())
        const parameters = { ...challenge.parameters, expiresAt: 1 }
        return encoded({ challenge: { ...challenge, parameters }, solution })
      },
      'proofInvalid',
    ],
  ])(
    '%s: answered like a success, dropped, counted and quarantined',
    async (_case, proof, reason) => {
      await startApp()
      const token = personToken('contact', 'en')
      const response = await post({ ...VALID, token, proof: await proof() }, {})
      expect(response.status).toBe(202)
      expect(await response.json()).toMatchObject({ status: 'accepted' })
      expect(await metric(`contact_rejected_total{reason="${reason}"}`)).toBe(1)
      await droppedIntoQuarantine(reason)
    },
  )

  it('a challenge of a key this site does not have: answered like an expired token, the message goes with the new one', async () => {
    await startApp()
    const token = personToken('contact', 'en')
    const proof = await personProof('another-key-of-at-least-thirty-two-chars')
    const response = await post({ ...VALID, token, proof }, {})
    expect(response.status).toBe(409)
    const answer = (await response.json()) as { token: string; challenge: ProofChallenge }
    expect(await metric('contact_rejected_total{reason="keyUnknown"}')).toBe(1)
    await nothingDelivered()
    const solved = await solveProof(answer.challenge)
    expect((await post({ ...VALID, token: answer.token, proof: solved }, {})).status).toBe(202)
    await eventually(() => smtp.received.length === 1)
  })

  it('a solution counts for one message: sent again with another token, it is a replay', async () => {
    await startApp()
    const proof = await personProof()
    const first = { ...VALID, token: personToken('contact', 'en'), proof }
    expect((await post(first, {})).status).toBe(202)
    await eventually(() => smtp.received.length === 1)
    const second = {
      ...first,
      token: personToken('contact', 'en'),
      message: `${VALID.message} Again.`,
    }
    expect((await post(second, {})).status).toBe(202)
    expect(await metric('contact_rejected_total{reason="replay"}')).toBe(1)
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(smtp.received).toHaveLength(1)
    expect(await quarantined()).toEqual(['replay'])
  })
})

describe('the honeypot', () => {
  it('answers like a success, delivers nothing and counts the reason', async () => {
    await startApp()
    const response = await post({ ...VALID, website: 'https://spam.example' }, {})
    expect(response.status).toBe(202)
    expect(await response.json()).toMatchObject({ status: 'accepted' })
    expect(await metric('contact_rejected_total{reason="honeypot"}')).toBe(1)
    await droppedIntoQuarantine('honeypot')
  })

  it('keeps nothing of a post that is no message at all (it fails the schema)', async () => {
    await startApp()
    const response = await post({ ...VALID, email: 'not-an-address', website: 'x' }, {})
    expect(response.status).toBe(202)
    expect(await metric('contact_rejected_total{reason="honeypot"}')).toBe(1)
    await nothingDelivered()
    expect(await quarantined()).toEqual([])
  })
})

describe('messages that look like spam', () => {
  const links = 'https://a.example https://b.example www.c.example'

  it.each([
    ['en', 'links', { message: `Cheap offers, see ${links} today` }],
    ['de', 'onlyLinks', { message: 'https://spam.example/offer' }],
    ['pl', 'linkInName', { name: 'www.spam.example' }],
  ] as const)(
    'are delivered (%s) with the marker in the subject and the sign named (%s)',
    async (locale, reason, change) => {
      await startApp()
      const response = await post({ ...VALID, ...change, locale }, {})
      expect(response.status).toBe(202)
      await eventually(() => smtp.received.length === 1)
      const mail = smtp.received[0]?.mail
      const mailText = (path: string) => text(locale, 'mail', path)
      expect(mail?.subject).toBe(
        `${mailText('suspect')} ${mailText('subjectPrefix')}: ${VALID.subject}`,
      )
      expect(mail?.text).toContain(`${mailText('suspectSigns')}: `)
      expect(mail?.text).toContain(Object.values(change)[0])
      expect(await metric(`contact_suspect_total{reason="${reason}"}`)).toBe(1)
    },
  )

  it('the same text sent again by another submission is delivered, marked as repeated', async () => {
    await startApp()
    const first = await withToken({ ...VALID, id: crypto.randomUUID() })
    expect((await post(first, {})).status).toBe(202)
    // The same submission again (the form after an error, its token and id): no sign.
    expect((await post(first, {})).status).toBe(202)
    // Another submission, the same text but for case and spacing: repeated.
    const again = { ...VALID, name: 'Grace Hopper', message: `  ${VALID.message.toUpperCase()}  ` }
    expect((await post(again, {})).status).toBe(202)
    await eventually(() => smtp.received.some(({ mail }) => mail.text?.includes('Grace Hopper')))
    const mails = smtp.received.map(({ mail }) => mail)
    const marked = mails.filter((mail) => mail.subject?.startsWith(text('en', 'mail', 'suspect')))
    expect(marked.map((mail) => mail.replyTo?.value[0]?.name)).toEqual(['Grace Hopper'])
    expect(marked[0]?.text).toContain('within the last 24 hours')
    expect(await metric('contact_suspect_total{reason="repeated"}')).toBe(1)
  })

  it('the same text with another token is marked repeated, whatever id the client keeps', async () => {
    await startApp()
    const id = crypto.randomUUID()
    expect((await post({ ...VALID, id }, {})).status).toBe(202)
    expect((await post({ ...VALID, id, name: 'Grace Hopper' }, {})).status).toBe(202)
    expect(await metric('contact_suspect_total{reason="repeated"}')).toBe(1)
  })

  it('a message with a link or two is delivered unmarked', async () => {
    await startApp()
    const message = 'Our current shop is at https://shop.example, the docs at www.docs.example.'
    expect((await post({ ...VALID, message }, {})).status).toBe(202)
    await eventually(() => smtp.received.length === 1)
    expect(smtp.received[0]?.mail.subject).toBe(`[Website] Contact request: ${VALID.subject}`)
  })
})

describe('suspectReasons', () => {
  const message = (change: Partial<ContactMessage>): ContactMessage => ({
    ...VALID,
    locale: 'en',
    ...change,
  })
  const link = (n: number) => `https://site${n}.example/page`

  it.each<[string, Partial<ContactMessage>, SuspectReason[]]>([
    ['plain prose', {}, []],
    [`${MAX_LINKS} links`, { message: `Please look at ${link(1)} and ${link(2)} first.` }, []],
    [
      `${MAX_LINKS + 1} links across subject and message`,
      { subject: link(0), message: `Please look at ${link(1)} and ${link(2)} first.` },
      ['links'],
    ],
    [
      'BBCode and HTML links',
      { message: `[url=${link(1)}]x[/url] <a href="${link(2)}">y</a> ${link(3)}` },
      ['links'],
    ],
    ['only a link', { message: `  ${link(1)}  ` }, ['onlyLinks']],
    ['links and punctuation only', { message: `${link(1)} - ${link(2)} !!` }, ['onlyLinks']],
    ['a link in the company', { company: 'Best Deals http://deals.example' }, ['linkInName']],
    ['a domain without www or scheme in the company', { company: 'example.com GmbH' }, []],
  ])('%s', (_case, change, expected) => {
    expect(suspectReasons(message(change))).toEqual(expected)
  })
})
