import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify'
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod'
import {
  CONTACT_FIELDS,
  contactFormPath,
  HONEYPOT_FIELD,
  isContactFormId,
  type ContactFormState,
} from '#shared/contact-fields.ts'
import {
  ContactAnswerSchemas,
  ContactSubmissionSchema,
  fieldErrors,
  type ContactApiAnswer,
} from '#shared/contact-schema.ts'
import { isLocale, type Locale } from '#shared/locales.ts'
import { serveFormPage } from '../render/serve-page.ts'
import { postOrigin } from '../services/post-origin.ts'
import { suspectReasons } from '../services/spam-signals.ts'

/** Small: the longest valid message is about 5.5 kB of text. */
export const CONTACT_BODY_LIMIT = 32 * 1024

const STATUS = { accepted: 202, invalid: 400, foreign: 403, rateLimited: 429, error: 503 } as const

type Body = Record<string, unknown>

/** What a post said about itself, kept before validation replaces the body with the message. */
type Post = Pick<ContactFormState, 'form' | 'values'> & { locale: Locale }

declare module 'fastify' {
  interface FastifyRequest {
    contactPost: Post | null
  }
}

function bodyOf(request: FastifyRequest): Body {
  const { body } = request
  return typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Body) : {}
}

/** The form and language a post came from (the contact page's in English if it names none). */
function readPost(body: Body): Post {
  return {
    form: isContactFormId(body.form) ? body.form : 'contact',
    locale: isLocale(body.locale) ? body.locale : 'en',
    values: keptValues(body),
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
  const { form, locale, values } = request.contactPost ?? readPost(bodyOf(request))
  const path = contactFormPath(form, locale)
  if (outcome.status === 'accepted') return reply.redirect(`${path}?sent=${form}`, 303)
  return serveFormPage(request.server, request, reply, {
    path,
    status,
    formState: {
      form,
      values,
      errors: outcome.status === 'invalid' ? outcome.errors : {},
      ...(outcome.status === 'invalid' ? {} : { outcome: outcome.status }),
      ...(outcome.status === 'rateLimited' ? { retryAfterSeconds: outcome.retryAfterSeconds } : {}),
    },
  })
}

/**
 * `POST /api/contact` (README, Contact form and mail delivery): JSON from the script,
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

  app.decorateRequest('contactPost', null)
  app.addHook('preValidation', async (request) => {
    request.contactPost = readPost(bodyOf(request))
  })

  // This route's own refusals become outcomes; anything else goes to the app's handler.
  app.setErrorHandler(
    async (error: FastifyError & { retryAfterSeconds?: number }, request, reply) => {
      // A body that fails the schema, or that is not even JSON: the fields' errors, if any.
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
      if (error.statusCode === 429) {
        app.contact.count('rateLimited')
        const retryAfterSeconds = error.retryAfterSeconds ?? 60
        return answer(request, reply, { status: 'rateLimited', retryAfterSeconds })
      }
      throw error
    },
  )

  app.post(
    '/api/contact',
    {
      bodyLimit: CONTACT_BODY_LIMIT,
      schema: { body: ContactSubmissionSchema, response: ContactAnswerSchemas },
      config: {
        rateLimit: {
          max: app.config.CONTACT_RATE_MAX,
          timeWindow: app.config.CONTACT_RATE_WINDOW,
          // After parsing, so a plain form that is over the limit can be shown again, filled in.
          hook: 'preValidation',
        },
      },
      // The spam defence's layers before the message is read (README, Spam defence).
      preValidation: async (request, reply) => {
        // Another site's post is refused plainly: a person sent there sees why, and their
        // text comes back in this site's form.
        if (postOrigin(request.headers, app.config.APP_BASE_URL) === 'foreign') {
          app.contact.reject('foreign')
          request.log.info({ outcome: 'refused', reason: 'foreign' }, 'contact submission')
          return answer(request, reply, { status: 'foreign' })
        }
        // Bots fill the hidden field: they get exactly what people get; nothing is stored or
        // sent, whatever else they posted.
        const honeypot = bodyOf(request)[HONEYPOT_FIELD]
        if (typeof honeypot !== 'string' || honeypot.trim() === '') return
        const id = app.contact.reject('honeypot')
        request.log.info(
          { messageId: id, outcome: 'spam', reason: 'honeypot' },
          'contact submission',
        )
        await answer(request, reply, { status: 'accepted', id })
      },
    },
    async (request, reply) => {
      const { id: submissionId, message } = request.body
      // Signs of spam in the content mark a message; they never drop what a person wrote.
      const suspect = suspectReasons(message)
      let id: string
      try {
        id = await app.contact.accept(message, submissionId, suspect)
      } catch (error) {
        app.contact.count('error')
        request.log.error({ err: error, outcome: 'error' }, 'contact message could not be stored')
        return answer(request, reply, { status: 'error' })
      }
      request.log.info(
        { messageId: id, outcome: 'accepted', ...(suspect.length > 0 ? { suspect } : {}) },
        'contact submission',
      )
      return answer(request, reply, { status: 'accepted', id })
    },
  )
}
