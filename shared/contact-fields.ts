import { LOCALES, localizePath, type Locale } from './locales.ts'
import { page, PAGES, type PageId, type ScreenPage } from './pages.ts'
import { SERVICES, SUPPORT_TIERS, type ServiceSlug, type SupportTier } from './services.ts'

/**
 * The contact forms and their fields: the only place a field is declared. The zod schema
 * (contact-schema.ts), the form's inputs, the no-JavaScript round trip, the API's error codes
 * and the lead e-mail's rows are computed from this table. A field's label is `form.<name>` in
 * `common`, its row in the e-mail `<name>` in `mail`. No zod here: pages load this with the
 * form, and the schema only when a visitor starts on it.
 */

/** The two forms: the contact page's and the home page's section, and the page of each. */
export const CONTACT_FORMS = {
  contact: { page: 'contact' },
  home: { page: 'home' },
} as const satisfies Record<string, { page: PageId }>
export type ContactFormId = keyof typeof CONTACT_FORMS
/** Every form's id, in the table's order. */
export const CONTACT_FORM_IDS = Object.keys(CONTACT_FORMS) as [ContactFormId, ...ContactFormId[]]
const ALL_FORMS: ContactFormId[] = CONTACT_FORM_IDS

export function isContactFormId(value: unknown): value is ContactFormId {
  return typeof value === 'string' && Object.hasOwn(CONTACT_FORMS, value)
}

/** The page a form lives on: where a plain post returns to (never taken from the request). */
export function contactFormPath(form: ContactFormId, locale: Locale): string {
  return localizePath(locale, page(CONTACT_FORMS[form].page).path)
}

/** Every form's page path in every language, made on first use (the page cache asks per request). */
let formPaths: Map<string, ContactFormId> | undefined

/** The form a page path shows (`/de` → `home`), if any: the page's token is made for it. */
export function formAt(pathname: string): ContactFormId | undefined {
  formPaths ??= new Map(
    LOCALES.flatMap((locale) => ALL_FORMS.map((form) => [contactFormPath(form, locale), form])),
  )
  return formPaths.get(pathname)
}

type Option = {
  value: string
  /** The option's text: an i18next key of a namespace every page embeds. */
  label:
    | `service-cards:${ServiceSlug}.name`
    | 'common:form.options.other'
    | `support-plans:${SupportTier}`
  /** The forms that offer it (a select's short list). */
  forms: readonly ContactFormId[]
}

type FieldEntry = {
  name: string
  /** `text` and `email` are one line; `textarea` keeps line breaks; `select` has options. */
  kind: 'text' | 'email' | 'textarea' | 'select'
  /** Required on every form that shows it. */
  isRequired: boolean
  /** Characters after trimming; a required field has at least one. */
  min?: number
  max?: number
  autoComplete?: string
  /** The forms that show it, in this table's order. */
  forms: readonly ContactFormId[]
  /** Spans the whole width of the form. */
  isWide?: boolean
  /**
   * Where the lead e-mail shows it: its first line when given (`head`), a row of the table
   * above the message, or the body.
   */
  mail: 'head' | 'row' | 'body'
  options?: readonly Option[]
}

/**
 * Service interests: one per service (the service's name), then "other"
 * (docs/decisions/contact-options-are-the-services-names.md).
 */
const SERVICE_OPTIONS = [
  ...SERVICES.map(({ slug, interest, isOnShortForm }): Option => ({
    value: interest,
    label: `service-cards:${slug}.name`,
    forms: isOnShortForm ? ALL_FORMS : ['contact'],
  })),
  { value: 'other', label: 'common:form.options.other', forms: ALL_FORMS },
] as const satisfies readonly Option[]

/** Managed IT's packages: a package's contact button preselects it (`?plan=standard`). */
const PLAN_OPTIONS = SUPPORT_TIERS.map(({ key }): Option => ({
  value: key,
  label: `support-plans:${key}`,
  forms: ['contact'],
}))

export const CONTACT_FIELDS = [
  {
    name: 'name',
    kind: 'text',
    isRequired: true,
    min: 2,
    max: 100,
    autoComplete: 'name',
    forms: ALL_FORMS,
    mail: 'row',
  },
  {
    name: 'email',
    kind: 'email',
    isRequired: true,
    max: 254,
    autoComplete: 'email',
    forms: ALL_FORMS,
    mail: 'row',
  },
  {
    name: 'company',
    kind: 'text',
    isRequired: false,
    max: 150,
    autoComplete: 'organization',
    forms: ALL_FORMS,
    mail: 'row',
  },
  {
    name: 'service',
    kind: 'select',
    isRequired: true,
    forms: ALL_FORMS,
    mail: 'row',
    options: SERVICE_OPTIONS,
  },
  {
    name: 'plan',
    kind: 'select',
    isRequired: false,
    forms: ['contact'],
    mail: 'head',
    options: PLAN_OPTIONS,
  },
  {
    name: 'subject',
    kind: 'text',
    isRequired: true,
    min: 3,
    max: 150,
    forms: ['contact'],
    isWide: true,
    mail: 'row',
  },
  {
    name: 'message',
    kind: 'textarea',
    isRequired: true,
    min: 10,
    max: 5000,
    forms: ALL_FORMS,
    isWide: true,
    mail: 'body',
  },
] as const satisfies readonly FieldEntry[]

export type ContactField = (typeof CONTACT_FIELDS)[number]
export type ContactFieldName = ContactField['name']

/** The fields a form shows, in order. */
export function formFields(form: ContactFormId): ContactField[] {
  return CONTACT_FIELDS.filter((field) => (field.forms as readonly string[]).includes(form))
}

/** The options a select offers on a form. */
export function fieldOptions(field: ContactField, form: ContactFormId): readonly Option[] {
  if (!('options' in field)) return []
  return field.options.filter((option) => (option.forms as readonly string[]).includes(form))
}

/** The hidden field people never see; anything in it marks the sender as a bot. */
export const HONEYPOT_FIELD = 'website'

/** The hidden field with the form's signed token (docs/contact.md#spam-defence). */
export const TOKEN_FIELD = 'token'

/**
 * The field of a script's post with its proof-of-work solution (docs/contact.md#spam-defence); its
 * format is `shared/proof-of-work.ts`'s.
 */
export const PROOF_FIELD = 'proof'

/**
 * The hidden field of the contact form a service page's call to action opened (its interest
 * preselected, `?service=cloud`): that service page's id, so the lead counts under the page
 * that brought it (docs/insight.md#insight-which-pages-bring-leads). The server takes only a
 * service page's id from it.
 */
export const VIA_FIELD = 'via'

/** A service page's id, as `VIA_FIELD` carries it. */
export type ServicePageId = ScreenPage<'service'>['id']

/** Is `value` a service page's id (the only thing `VIA_FIELD` may name)? */
export function isServicePageId(value: unknown): value is ServicePageId {
  return PAGES.some((entry) => entry.screen === 'service' && entry.id === value)
}

/**
 * The service page whose call to action preselected `values`' interest on `form`, if any:
 * only the contact page's form is opened that way.
 */
export function viaPage(
  form: ContactFormId,
  values: ContactFormState['values'],
): ServicePageId | undefined {
  if (form !== 'contact') return undefined
  const slug = SERVICES.find((service) => service.interest === values.service)?.slug
  return PAGES.find(
    (entry): entry is ScreenPage<'service'> => entry.screen === 'service' && entry.service === slug,
  )?.id
}

export const FIELD_ERROR_CODES = [
  'required',
  'tooShort',
  'tooLong',
  'invalidEmail',
  'invalidOption',
  'controlCharacters',
  'invalid',
] as const

export type FieldErrorCode = (typeof FIELD_ERROR_CODES)[number]
export type FieldErrors = Partial<Record<ContactFieldName, FieldErrorCode>>

/**
 * The signed token a page's form posts with (docs/contact.md#spam-defence), for the form it belongs
 * to: a page rendered for one form never lends its token to another.
 */
export type FormToken = { form: ContactFormId; token: string }

/** A plain (no-JavaScript) post answered with its page: the form's state to show. */
export type ContactFormState = {
  form: ContactFormId
  /** The path of the form's page, where the answer was rendered (not the post's URL). */
  path: string
  values: Partial<Record<ContactFieldName, string>>
  /** The service page that opened the form (`VIA_FIELD`), kept when the form is shown again. */
  via?: ServicePageId
  errors: FieldErrors
  outcome?: 'error' | 'rateLimited' | 'foreign' | 'expired'
  retryAfterSeconds?: number
}

/**
 * The contact page with fields of its form preselected (a service page's call to action):
 * each query parameter is a field's name (`?service=cloud&plan=standard`), see
 * `prefilledValues`.
 */
export function contactLink(values: Partial<Record<ContactFieldName, string>>): string {
  const query = new URLSearchParams(values)
  return `${page('contact').path}?${query.toString()}`
}

/**
 * The query parameter a plain post's answer carries (`?sent=contact`): the form's page then says
 * the message is on its way.
 */
export const SENT_PARAMETER = 'sent'

/** A form's page after a plain post was accepted: where the post is redirected. */
export function sentPath(form: ContactFormId, locale: Locale): string {
  return `${contactFormPath(form, locale)}?${SENT_PARAMETER}=${form}`
}

/**
 * What a page reads of its query, as one canonical search string ('' for nothing): the answer
 * to a plain post (`SENT_PARAMETER`) and the choices a link preselects (`prefilledValues`) on a
 * form's page, read exactly as the page reads them (the first value of each). Everything else,
 * `utm_*`, `gclid`, `fbclid` or any parameter a page never reads, leaves the page as it is: the
 * page cache keys pages by this (docs/decisions/campaign-links-from-the-cache.md).
 */
export function queryThePageReads(pathname: string, query: URLSearchParams): string {
  const form = formAt(pathname)
  if (!form) return ''
  // Set only for choices the form offers, in the table's order.
  const read = new URLSearchParams(prefilledValues(form, query))
  if (query.get(SENT_PARAMETER) === form) read.set(SENT_PARAMETER, form)
  const search = read.toString()
  return search && `?${search}`
}

/**
 * Field values a link preselects (`?service=cloud`): only choices a form offers, so a link
 * cannot put arbitrary text into the form.
 */
export function prefilledValues(
  form: ContactFormId,
  query: URLSearchParams,
): ContactFormState['values'] {
  const values: ContactFormState['values'] = {}
  for (const field of formFields(form)) {
    const value = query.get(field.name)
    if (fieldOptions(field, form).some((option) => option.value === value)) {
      values[field.name] = value ?? undefined
    }
  }
  return values
}
