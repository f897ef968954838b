import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify'
import { ContactMessageSchema, ContactPageMessageSchema, fieldErrors } from '#shared/contact.ts'
import { HONEYPOT_FIELD, type ContactApiAnswer, type FieldErrors } from '#shared/contact-fields.ts'
import { CONTACT_FORMS, type ContactFormState, contactFormPath } from '#shared/contact-form.ts'
import { isLocale } from '#shared/locales.ts'
import { renderPage } from './pages.ts'

/** Small: the longest valid message is about 5.5 kB of text. */
export const CONTACT_BODY_LIMIT = 32 * 1024

type Body = Record<string, unknown>

function isFormPost(request: FastifyRequest) {
  return (request.headers['content-type'] ?? '').startsWith('application/x-www-form-urlencoded')
}

/** Which page's form sent a plain (no-JavaScript) post, and in which language. */
function formOf(body: Body) {
  const form = CONTACT_FORMS.find((candidate) => candidate === body.form) ?? 'contact'
  const locale = isLocale(body.locale) ? body.locale : 'en'
  return { form, locale }
}

/** The visitor's input, for re-rendering a plain form: text fields only, bounded. */
function keptValues(body: Body): Record<string, string> {
  const values: Record<string, string> = {}
  for (const field of ['name', 'email', 'company', 'service', 'subject', 'message']) {
    const value = body[field]
    if (typeof value === 'string') values[field] = value.slice(0, 6000)
  }
  return values
}

/**
 * Answer a plain form post with the whole page: the form with its errors and the visitor's
 * input (or a status), rendered like any page, with the API's status code.
 */
export async function renderFormState(
  app: FastifyInstance,
  request: FastifyRequest,
  reply: FastifyReply,
  status: number,
  state: Omit<ContactFormState, 'form' | 'values'>,
) {
  const body = (request.body ?? {}) as Body
  const { form, locale } = formOf(body)
  return renderPage(app, request, reply, {
    path: contactFormPath(form, locale),
    status,
    formState: { form, values: keptValues(body), ...state },
  })
}

function answer(reply: FastifyReply, status: number, body: ContactApiAnswer) {
  return reply.code(status).header('Cache-Control', 'no-store').send(body)
}

/** `POST /api/contact`: JSON for the script, urlencoded for the plain form (README, Contact form and mail delivery). */
export async function contactRoutes(app: FastifyInstance) {
  // JSON and urlencoded only: anything else (Fastify's default text/plain too) is a 415.
  app.removeContentTypeParser('text/plain')
  app.addContentTypeParser(
    'application/x-www-form-urlencoded',
    { parseAs: 'string', bodyLimit: CONTACT_BODY_LIMIT },
    (_request, body, done) => {
      done(null, Object.fromEntries(new URLSearchParams(body as string)))
    },
  )

  app.post(
    '/api/contact',
    {
      bodyLimit: CONTACT_BODY_LIMIT,
      config: {
        rateLimit: {
          max: app.config.CONTACT_RATE_MAX,
          timeWindow: app.config.CONTACT_RATE_WINDOW,
          // After parsing, so a plain form that is over the limit can be shown again, filled in.
          hook: 'preHandler',
        },
      },
    },
    async (request, reply) => {
      const body: Body =
        typeof request.body === 'object' && request.body !== null && !Array.isArray(request.body)
          ? (request.body as Body)
          : {}
      const isPlain = isFormPost(request)
      const { form, locale } = formOf(body)

      const honeypot = body[HONEYPOT_FIELD]
      if (typeof honeypot === 'string' && honeypot.trim() !== '') {
        // Bots get exactly what people get; nothing is stored or sent.
        const id = app.contact.rejectSpam()
        request.log.info({ messageId: id, outcome: 'spam' }, 'contact submission')
        return isPlain
          ? reply.redirect(`${contactFormPath(form, locale)}?sent=${form}`, 303)
          : answer(reply, 202, { status: 'accepted', id })
      }

      const schema = isPlain && form === 'contact' ? ContactPageMessageSchema : ContactMessageSchema
      const parsed = schema.safeParse(body)
      if (!parsed.success) {
        const errors: FieldErrors = fieldErrors(parsed.error)
        app.contact.count('invalid')
        request.log.info({ outcome: 'invalid', fields: Object.keys(errors) }, 'contact submission')
        return isPlain
          ? renderFormState(app, request, reply, 400, { errors })
          : answer(reply, 400, { status: 'invalid', errors })
      }

      let id: string
      try {
        const { id: submissionId, ...message } = parsed.data
        id = await app.contact.accept(message, submissionId)
      } catch (error) {
        app.contact.count('error')
        request.log.error({ err: error, outcome: 'error' }, 'contact message could not be stored')
        return isPlain
          ? renderFormState(app, request, reply, 503, { errors: {}, outcome: 'error' })
          : answer(reply.header('Retry-After', '60'), 503, { status: 'error' })
      }
      request.log.info({ messageId: id, outcome: 'accepted' }, 'contact submission')
      return isPlain
        ? reply.redirect(`${contactFormPath(form, locale)}?sent=${form}`, 303)
        : answer(reply, 202, { status: 'accepted', id })
    },
  )
}
