import { randomUUID } from 'node:crypto'
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import { z } from 'zod'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  CONTACT_FIELDS,
  CONTACT_FORM_IDS,
  contactFormPath,
  HONEYPOT_FIELD,
  PROOF_FIELD,
  sentPath,
  TOKEN_FIELD,
  VIA_FIELD,
  isContactFormId,
  isServicePageId,
  type ContactFormState,
} from '#shared/contact-fields.ts'
import {
  ContactAnswerSchemas,
  ContactSubmissionSchema,
  fieldErrors,
  parseContact,
  type ContactApiAnswer,
  type ContactMessage,
} from '#shared/contact-schema.ts'
import { isLocale, LOCALES, type Locale } from '#shared/locales.ts'
import { ProofChallengeSchema } from '#shared/proof-of-work.ts'
import { distinctSourcesGauge, type DistinctSources } from '../lib/distinct-sources.ts'
import { serveFormPage } from '../render/serve-page.ts'
import {
  type DropReason,
  REJECTIONS,
  postOrigin,
  REPEAT_WINDOW_MS,
  repeatableText,
  spendPageBudget,
  suspectReasons,
  type TokenClaims,
} from '../services/spam/index.ts'

/** The window of `contact_quarantine_person_sources`, as long as the alert's (helm/README.md). */
export const PERSON_SOURCES_WINDOW_MS = 60 * 60_000

/** Small: the longest valid message is about 5.5 kB of text. */
const CONTACT_BODY_LIMIT = 32 * 1024

/**
 * Form tokens given out per client IP and `CONTACT_RATE_WINDOW`, per message it may send:
 * each token comes with a proof-of-work challenge whose key the server derives (PBKDF2), so
 * the endpoint is limited too. A person starts a form a few times per message at most; a
 * visitor over the limit is told when to send again, the text kept (privacy policy, rate limits).
 */
export const TOKENS_PER_MESSAGE = 4

const STATUS = {
  accepted: 202,
  invalid: 400,
  foreign: 403,
  expired: 409,
  rateLimited: 429,
  error: 503,
} as const

type Body = Record<string, unknown>

/** What a post said about itself, kept before validation replaces the body with the message. */
type Post = Pick<ContactFormState, 'form' | 'values' | 'via'> & { locale: Locale }

declare module 'fastify' {
  interface FastifyRequest {
    contactPost: Post | null
    /** The post's valid token, once the spam defence has checked it. */
    contactToken: TokenClaims | null
    /** The claim of the post's proof-of-work solution (a script's post), once checked. */
    contactProof: { key: string; ttlMs: number } | null
  }
  interface FastifyInstance {
    /** The clients whose posts were held back for a reason a person can cause (this hour). */
    contactPersonSources: DistinctSources
  }
}

/** `GET /api/contact/token`'s query: the form and language the token is for. */
const TokenQuerySchema = z.object({ form: z.enum(CONTACT_FORM_IDS), locale: z.enum(LOCALES) })

function bodyOf(request: FastifyRequest): Body {
  const { body } = request
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Body) : {}
}

/** The form and language a post came from (the contact page's in English if it names none). */
function readPost(body: Body): Post {
  const form = isContactFormId(body.form) ? body.form : 'contact'
  const via = body[VIA_FIELD]
  return {
    form,
    locale: isLocale(body.locale) ? body.locale : 'en',
    values: keptValues(body),
    // Only the contact page's form is opened by a service page, and only one names it.
    ...(form === 'contact' && isServicePageId(via) ? { via } : {}),
  }
}

/**
 * The visitor's input of a plain post, to show the form again: the table's fields only,
 * strings only, bounded (a value longer than any limit is refused anyway).
 */
function keptValues(body: Record<string, unknown>): ContactFormState['values'] {
  const values: ContactFormState['values'] = {}
  for (const { name } of CONTACT_FIELDS) {
    const value = body[name]
    if (typeof value === 'string') values[name] = value.slice(0, 6000)
  }
  return values
}

/** A browser without JavaScript posts the form itself and gets a page back. */
function isFormPost(request: FastifyRequest): boolean {
  return (request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')
}

/**
 * Answer a submission's outcome: JSON for the script, or for a plain form post the page
 * again (303 to its success state; otherwise the form with its errors and input, or a
 * status, under the API's status code). The form and language come from the post, the page
 * from the form table: never a path taken from the request.
 */
async function answer(request: FastifyRequest, reply: FastifyReply, outcome: ContactApiAnswer) {
  const status = STATUS[outcome.status]
  if (!isFormPost(request)) {
    reply.code(status).header('Cache-Control', 'no-store')
    if (outcome.status === 'error') reply.header('Retry-After', '60')
    return reply.send(outcome)
  }
  const { form, locale, values, via } = request.contactPost ?? readPost(bodyOf(request))
  const path = contactFormPath(form, locale)
  if (outcome.status === 'accepted') return reply.redirect(sentPath(form, locale), 303)
  // The form shown again keeps the token it was sent with (a token is good for one message,
  // whatever was corrected on the way); an expired one is replaced, good at once.
  const posted = bodyOf(request)[TOKEN_FIELD]
  const token =
    outcome.status === 'expired'
      ? request.server.formTokens.matured('page', form, locale)
      : typeof posted === 'string' && posted !== ''
        ? posted
        : request.server.formTokens.issue('page', form, locale)
  return serveFormPage(request.server, request, reply, {
    path,
    status,
    formToken: { form, token },
    formState: {
      form,
      path,
      values,
      ...(via ? { via } : {}),
      errors: outcome.status === 'invalid' ? outcome.errors : {},
      ...(outcome.status === 'invalid' ? {} : { outcome: outcome.status }),
      ...(outcome.status === 'rateLimited' ? { retryAfterSeconds: outcome.retryAfterSeconds } : {}),
    },
  })
}

/** Which drop a token's verdict is. */
const TOKEN_REASONS = {
  missing: 'tokenMissing',
  forged: 'tokenForged',
  tooYoung: 'tooFast',
} as const satisfies Record<string, DropReason>

/** Which drop a proof of work's verdict is. */
const PROOF_REASONS = {
  missing: 'proofMissing',
  invalid: 'proofInvalid',
} as const satisfies Record<string, DropReason>

/**
 * A post the spam defence drops: counted by reason and logged without its content, kept in
 * the quarantine if it is a message at all (docs/contact.md#quarantine), never delivered, and
 * answered exactly like a person's accepted message. `message`: the validated message, when
 * the route has it already; otherwise the body is checked here (a post that is no valid
 * message is not kept).
 */
async function dropAsSpam(
  request: FastifyRequest,
  reply: FastifyReply,
  reason: DropReason,
  message?: ContactMessage,
) {
  const { form } = request.contactPost ?? readPost(bodyOf(request))
  let kept = message
  if (!kept) {
    const parsed = parseContact(bodyOf(request))
    if (parsed.success) kept = parsed.message
  }
  const id = await request.server.contact.drop(reason, kept ? { form, message: kept } : null)
  if (REJECTIONS[reason].mayBePerson) request.server.contactPersonSources.add(request.ip)
  request.log.info({ messageId: id, outcome: 'spam', reason }, 'contact submission')
  return answer(request, reply, { status: 'accepted', id })
}

/**
 * A person's form that outlived its token (`tokenExpired`) or its key (`keyUnknown`): a new
 * token good at once and a new challenge; the script sends the message again by itself, the
 * page without JavaScript shows the form again with the text and says why.
 */
async function renew(
  request: FastifyRequest,
  reply: FastifyReply,
  reason: 'tokenExpired' | 'keyUnknown',
) {
  const app = request.server
  const { form, locale } = request.contactPost ?? readPost(bodyOf(request))
  // Renewed as often as it comes (a double click must not turn into a silent loss): a renewed
  // token is worth no more than one from the token route after a few seconds, and the rate
  // limit counts every message.
  app.contact.reject(reason)
  request.log.info({ outcome: 'expired', reason }, 'contact submission')
  return answer(request, reply, {
    status: 'expired',
    token: app.formTokens.matured('script', form, locale),
    challenge: await app.proofs.challenge(),
  })
}

/**
 * `POST /api/contact` (docs/contact.md#contact-form-and-mail-delivery): JSON from the script,
 * urlencoded from a browser without JavaScript, one schema for both. Each submission ends in
 * one outcome (accepted, invalid, rate limited, not stored), answered by `answer`.
 */
export const contactRoutes: FastifyPluginAsyncZod = async (app) => {
  // JSON and urlencoded only: anything else (Fastify's default text/plain too) is a 415.
  app.removeContentTypeParser('text/plain')
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: CONTACT_BODY_LIMIT },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)))
    },
  )

  // The alert on people's posts in the quarantine asks how many different clients sent them, so
  // one client's forged posts cannot fire it (helm/README.md).
  const personSources = distinctSourcesGauge(app.metrics, {
    name: 'contact_quarantine_person_sources',
    help: 'Different client addresses whose posts were held back for a reason a person can cause, in the last hour, on this pod',
    windowMs: PERSON_SOURCES_WINDOW_MS,
  })
  app.decorate('contactPersonSources', personSources)

  app.decorateRequest('contactPost', null)
  app.decorateRequest('contactToken', null)
  app.decorateRequest('contactProof', null)
  app.addHook('preValidation', async (request) => {
    request.contactPost = readPost(bodyOf(request))
  })

  // This route's own refusals become outcomes; anything else goes to the app's handler.
  app.setErrorHandler(
    async (error: FastifyError & { retryAfterSeconds?: number }, request, reply) => {
      // A body that fails the schema, or that is not even JSON: the fields' errors, if any, in
      // the one shape of refusal (docs/decisions/contact-options-are-the-services-names.md).
      if (error.validation || error.statusCode === 400) {
        const errors = fieldErrors(
          (error.validation ?? []).map((issue) => ({
            path: issue.instancePath.split('/').slice(1),
            message: issue.message ?? '',
          })),
        )
        app.contact.count('invalid')
        request.log.info({ outcome: 'invalid', fields: Object.keys(errors) }, 'contact submission')
        return answer(request, reply, { status: 'invalid', errors })
      }
      // A token asked for too often: the form keeps the text and says when to send again.
      if (error.statusCode === 429 && request.method === 'GET') {
        const retryAfterSeconds = error.retryAfterSeconds ?? 60
        return reply
          .code(429)
          .header('Cache-Control', 'no-store')
          .header('Retry-After', String(retryAfterSeconds))
          .send({ status: 'rateLimited', retryAfterSeconds })
      }
      if (error.statusCode === 429) {
        app.contact.count('rateLimited')
        const retryAfterSeconds = error.retryAfterSeconds ?? 60
        return answer(request, reply, { status: 'rateLimited', retryAfterSeconds })
      }
      throw error
    },
  )

  // The form's script asks for its token when a visitor starts on the form
  // (docs/contact.md#spam-defence): pages stay cacheable, and each visitor gets a token of their
  // own, with the proof-of-work challenge its post must carry the solution of.
  app.get(
    '/api/contact/token',
    {
      schema: {
        querystring: TokenQuerySchema,
        response: { 200: z.object({ token: z.string(), challenge: ProofChallengeSchema }) },
      },
      config: {
        rateLimit: {
          max: app.policyFacts.rateLimit.tokenMax,
          timeWindow: app.config.CONTACT_RATE_WINDOW,
        },
      },
    },
    async (request, reply) => {
      const { form, locale } = request.query
      reply.header('Cache-Control', 'no-store')
      return {
        token: app.formTokens.issue('script', form, locale),
        challenge: await app.proofs.challenge(),
      }
    },
  )

  // The spam defence's layers before the message is read (docs/contact.md#spam-defence).
  const spamDefence = async (request: FastifyRequest, reply: FastifyReply) => {
    // Another site's post is refused plainly: a person sent there sees why, and their
    // text comes back in this site's form.
    const origin = postOrigin(request.headers, app.config.APP_BASE_URL)
    if (origin === 'foreign') {
      app.contact.reject('foreign')
      request.log.info({ outcome: 'refused', reason: 'foreign' }, 'contact submission')
      return answer(request, reply, { status: 'foreign' })
    }
    // Bots fill the hidden field: they get exactly what people get, before validation;
    // nothing is sent, and the post is only kept in the quarantine
    // (docs/decisions/honeypot-checked-before-the-rate-limit.md).
    const body = bodyOf(request)
    const honeypot = body[HONEYPOT_FIELD]
    if (typeof honeypot === 'string' && honeypot.trim() !== '') {
      return dropAsSpam(request, reply, 'honeypot')
    }
    // The form's token: missing, forged or too young is a bot's; expired is a person's
    // form left open for hours, who is told and can send again at once.
    const { form, locale } = request.contactPost ?? readPost(body)
    const check = app.formTokens.check(body[TOKEN_FIELD], { form, locale })
    if (check.verdict === 'expired') return renew(request, reply, 'tokenExpired')
    // Signed by a key this site no longer has: a person's form that outlived it, not a
    // forgery (docs/decisions/form-token-keys.md).
    if (check.verdict === 'keyUnknown') return renew(request, reply, 'keyUnknown')
    if (check.verdict !== 'valid') {
      return dropAsSpam(request, reply, TOKEN_REASONS[check.verdict])
    }
    if (check.claims.kind === 'page') {
      // Only the form without JavaScript relies on a page's token alone; a script's post
      // (JSON) carries a solved proof of work, with a token of its own (the form's script never
      // sends the page's).
      if (!isFormPost(request)) return dropAsSpam(request, reply, 'proofMissing')
      // A kept page's token is as old as the page, not as the visit: it counts only from a
      // browser that says the post comes from this site (every browser since 2020 does; a
      // script reading the page does not).
      if (origin !== 'same-origin') return dropAsSpam(request, reply, 'noBrowser')
    }
    // A script's token came with a challenge: its post carries the solution, found in the
    // visitor's browser while they typed. (A kept page's form has no script to solve one.)
    if (check.claims.kind === 'script') {
      const proof = await app.proofs.check(body[PROOF_FIELD])
      if (proof.verdict === 'keyUnknown') return renew(request, reply, 'keyUnknown')
      if (proof.verdict !== 'valid') {
        return dropAsSpam(request, reply, PROOF_REASONS[proof.verdict])
      }
      request.contactProof = {
        key: proof.claimKey,
        ttlMs: Math.max(1000, proof.expiresAt - Date.now()),
      }
    }
    request.contactToken = check.claims
  }
  // Every post counts against the rate limit, those the spam defence answers too (a bot's, an
  // expired form's): `@fastify/rate-limit` appends its check to the route's preValidation
  // hooks when the route is added (its onRoute hook, the app's), so the defence is appended
  // after it, by this plugin's onRoute hook, which Fastify runs after the app's (the order since
  // 2026-11-28: docs/decisions/honeypot-checked-before-the-rate-limit.md, Consequences).
  app.addHook('onRoute', (route) => {
    if (route.method !== 'POST' || route.url !== '/api/contact') return
    const hooks = route.preValidation
    route.preValidation = [...(Array.isArray(hooks) ? hooks : hooks ? [hooks] : []), spamDefence]
  })

  app.post(
    '/api/contact',
    {
      bodyLimit: CONTACT_BODY_LIMIT,
      schema: { body: ContactSubmissionSchema, response: ContactAnswerSchemas },
      config: {
        rateLimit: {
          max: app.config.CONTACT_RATE_MAX,
          timeWindow: app.config.CONTACT_RATE_WINDOW,
          // After parsing, so a plain form that is over the limit can be shown again, filled in;
          // before the spam defence (above), so every post counts.
          hook: 'preValidation',
        },
      },
    },
    async (request, reply) => {
      const { id: submissionId, message } = request.body
      // A token is good for one message: the same submission sent again (after an error)
      // holds the claim it made; any other post with the token is a replay, whatever id it
      // names.
      const claims = request.contactToken
      if (!claims) throw new Error('contact post without a checked token')
      const claim = {
        key: app.formTokens.claimKey(claims, message),
        value: app.formTokens.submissionValue(claims, submissionId ?? randomUUID(), message),
      }
      const ttl = app.formTokens.limits.maxAgeMs
      if ((await app.formTokens.claims.claim(claim.key, claim.value, ttl)) !== null) {
        return dropAsSpam(request, reply, 'replay', message)
      }
      // A page's token costs a bot one page request: its posts have a budget of their own, per
      // token and per address; one over it is held back for a person to see, not delivered.
      if (
        claims.kind === 'page' &&
        !(await spendPageBudget(
          app.formTokens,
          { claims, address: request.ip, value: claim.value },
          { ms: app.config.CONTACT_RATE_WINDOW, perAddress: app.policyFacts.rateLimit.pageMax },
        ))
      ) {
        return dropAsSpam(request, reply, 'pageBudget', message)
      }
      // So is a proof-of-work solution: one solve, one message, whatever token comes with it.
      const proof = request.contactProof
      if (proof && (await app.formTokens.claims.claim(proof.key, claim.value, proof.ttlMs))) {
        return dropAsSpam(request, reply, 'replay', message)
      }
      // Signs of spam in the content mark a message; they never drop what a person wrote. The
      // same text as another submission's within a day is one of them: another token or
      // another id is another submission.
      const text = {
        key: app.formTokens.textKey(repeatableText(message)),
        value: claim.value,
      }
      const isRepeated =
        (await app.formTokens.claims.claim(text.key, text.value, REPEAT_WINDOW_MS)) !== null
      const suspect = [...suspectReasons(message), ...(isRepeated ? (['repeated'] as const) : [])]
      let id: string
      try {
        id = await app.contact.accept(message, submissionId, suspect)
      } catch (error) {
        // Not stored: the visitor may send the same message again with the same token.
        await app.formTokens.claims.release(claim.key, claim.value)
        await app.formTokens.claims.release(text.key, text.value)
        if (proof) await app.formTokens.claims.release(proof.key, claim.value)
        app.contact.count('error')
        request.log.error({ err: error, outcome: 'error' }, 'contact message could not be stored')
        return answer(request, reply, { status: 'error' })
      }
      const post = request.contactPost ?? readPost(bodyOf(request))
      app.insight.countLead({ ...post, locale: message.locale, service: message.service })
      request.log.info(
        { messageId: id, outcome: 'accepted', ...(suspect.length > 0 ? { suspect } : {}) },
        'contact submission',
      )
      return answer(request, reply, { status: 'accepted', id })
    },
  )
}
