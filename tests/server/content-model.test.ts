import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { MAIL_NAMESPACES } from '#server/services/contact/mail.ts'
import { CONTACT_FIELDS, CONTACT_FORMS, fieldOptions, formFields } from '#shared/contact-fields.ts'
import { parseContact } from '#shared/contact-schema.ts'
import { LOCALES, localizePath } from '#shared/locales.ts'
import { PAGES, SCREENS, screenSource } from '#shared/pages.ts'
import { SERVICES, serviceNamespace, servicePath } from '#shared/services.ts'
import { slugFromName, TEAM, teamPath } from '#shared/team.ts'
import { buildTestApp, serverErrors } from '#tests/helpers/build-test-app.ts'
import { get, html, texts } from '#tests/helpers/locales.ts'
import { eventually } from '#tests/helpers/eventually.ts'
import { startSmtpServer } from '#tests/helpers/smtp.ts'
import { withToken } from '#tests/helpers/form-token.ts'
import { acceptedValue } from '#tests/helpers/contact-samples.ts'

// The tables in shared/ are the only place a service, a team member, a page or a contact
// field is declared (docs/decisions/one-table-per-thing.md). These tests walk them, so an entry
// that is only half added (no texts in one language, no icon, no portrait, a field the e-mail
// forgets) fails here, not for a visitor.

const ROOT = join(import.meta.dirname, '..', '..')
const ICONS = readFileSync(join(ROOT, 'client/components/icons.tsx'), 'utf8')

let app: FastifyInstance
let smtp: Awaited<ReturnType<typeof startSmtpServer>>
let outboxDir: string

beforeAll(async () => {
  smtp = await startSmtpServer()
  outboxDir = mkdtempSync(join(tmpdir(), 'content-model-'))
  app = await buildTestApp(
    { SMTP_URL: smtp.url, OUTBOX_DIR: outboxDir, CONTACT_RATE_MAX: '1000' },
    { deliveryPollMs: 50, firstRetryMs: 50 },
  )
})

afterAll(async () => {
  await app.close()
  await smtp.stop()
  rmSync(outboxDir, { recursive: true, force: true })
})

async function page(path: string): Promise<string> {
  const response = await app.inject({ method: 'GET', url: path })
  expect(response.statusCode, `${path}\n${serverErrors(app)}`).toBe(200)
  return response.body
}

/** The part of a page between two markers (the header's menu, the footer). */
function between(body: string, start: string, end: string): string {
  const from = body.indexOf(start)
  return body.slice(from, body.indexOf(end, from))
}

describe.each(SERVICES)('service $slug', (service) => {
  it('has a page in the table and an icon that is drawn', () => {
    expect(PAGES.some((entry) => 'service' in entry && entry.service === service.slug)).toBe(true)
    expect(ICONS).toMatch(new RegExp(`^  ${service.icon}: `, 'm'))
  })

  it.each(LOCALES)(
    'has its texts in %s, shown on its page, in the menu and the footer',
    async (locale) => {
      const own = texts(locale, serviceNamespace(service.slug))
      const name = html(get(own, 'card.name'), locale)
      for (const key of ['card.name', 'card.teaser', 'card.summary', 'meta.title', 'hero.title']) {
        expect(String(get(own, key)).trim(), key).not.toBe('')
      }
      const href = `href="${localizePath(locale, servicePath(service.slug))}"`
      const body = await page(localizePath(locale, '/'))
      expect(between(body, '<header', '</header>')).toContain(href)
      expect(between(body, '<header', '</header>')).toContain(name)
      expect(between(body, '<footer', '</footer>')).toContain(href)
      expect(body, 'home teaser').toContain(html(get(own, 'card.teaser'), locale))
      expect(await page(localizePath(locale, '/services'))).toContain(
        html(get(own, 'card.summary'), locale),
      )
      expect(await page(localizePath(locale, servicePath(service.slug)))).toContain(
        html(get(own, 'hero.title'), locale),
      )
    },
  )

  it('is in the sitemap in every language', async () => {
    const sitemap = (await app.inject({ method: 'GET', url: '/sitemap.xml' })).body
    for (const locale of LOCALES) {
      expect(sitemap).toContain(`${localizePath(locale, servicePath(service.slug))}</loc>`)
    }
  })

  it('is a service interest of the contact form, named as the service', async () => {
    const options = CONTACT_FIELDS.flatMap((field) => fieldOptions(field, 'contact'))
    expect(options.map((option) => option.value)).toContain(service.interest)
    const body = await page('/de/contact')
    const name = html(get(texts('de', serviceNamespace(service.slug)), 'card.name'), 'de')
    expect(body).toContain(`<option value="${service.interest}">${name}</option>`)
  })
})

describe.each(TEAM)('team member $slug', (member) => {
  it('has a page, a slug made from the name and a portrait', () => {
    expect(PAGES.some((entry) => 'member' in entry && entry.member === member.slug)).toBe(true)
    expect(member.slug).toBe(slugFromName(member.name))
    expect(existsSync(join(ROOT, 'client/assets/team', `${member.slug}.svg`))).toBe(true)
  })

  it.each(LOCALES)('has a role, a bio and a profile page in %s', async (locale) => {
    const copy = texts(locale, 'team')
    const role = html(get(copy, `members.${member.key}.role`), locale)
    expect(await page(localizePath(locale, teamPath(member.slug)))).toContain(role)
    expect(await page(localizePath(locale, '/about'))).toContain(role)
  })
})

describe('pages', () => {
  it.each(SCREENS)('the %s screen has its page module', (screen) => {
    const source = readFileSync(join(ROOT, screenSource(screen)), 'utf8')
    const name = `${screen.charAt(0).toUpperCase()}${screen.slice(1)}Page`
    expect(source).toContain(`export function ${name}(`)
  })

  it('every page declares namespaces that exist in every language', () => {
    for (const entry of PAGES) {
      for (const ns of entry.namespaces) {
        for (const locale of LOCALES) {
          expect(existsSync(join(ROOT, 'locales', locale, `${ns}.json`)), `${locale}/${ns}`).toBe(
            true,
          )
        }
      }
    }
  })
})

/** A value a field accepts, distinctive enough to find again. */
const sample = (field: (typeof CONTACT_FIELDS)[number]) =>
  acceptedValue(field, 'contact', `Sample ${field.name} for the round trip`)

const VALID = Object.fromEntries(CONTACT_FIELDS.map((field) => [field.name, sample(field)]))

describe.each(CONTACT_FIELDS)('contact field $name', (field) => {
  it('has a label and an e-mail label in every language', () => {
    for (const locale of LOCALES) {
      expect(get(texts(locale, 'common'), `form.${field.name}`), locale).toBeTruthy()
      expect(get(texts(locale, 'mail'), field.name), locale).toBeTruthy()
      if (field.kind === 'select') {
        expect(get(texts(locale, 'common'), `form.${field.name}Placeholder`), locale).toBeTruthy()
      }
    }
  })

  it('is shown by its forms, with its limits', async () => {
    for (const form of Object.keys(CONTACT_FORMS) as (keyof typeof CONTACT_FORMS)[]) {
      const body = await page(localizePath('en', form === 'home' ? '/' : '/contact'))
      const isShown = formFields(form).includes(field)
      expect(body.includes(`name="${field.name}"`), `${form} form`).toBe(isShown)
    }
    const body = await page('/contact')
    const control = (body.match(/<(input|textarea|select)\b[^>]*>/g) ?? []).find((tag) =>
      tag.includes(`name="${field.name}"`),
    )
    if ('max' in field) expect(control).toContain(`maxLength="${field.max}"`)
    if ('min' in field) expect(control).toContain(`minLength="${field.min}"`)
    expect(control?.includes('required=""')).toBe(field.isRequired)
  })

  it('is required exactly where the table says, the same way in the browser and the API', async () => {
    const rest = Object.fromEntries(Object.entries(VALID).filter(([name]) => name !== field.name))
    // A missing choice is "not one of the options"; a missing text is "required".
    const code = field.kind === 'select' ? 'invalidOption' : 'required'
    const expected = field.isRequired ? { [field.name]: code } : {}
    const browser = parseContact({ ...rest, form: 'contact' })
    expect(browser.success ? {} : browser.errors).toEqual(expected)
    const response = await app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: await withToken({ ...rest, form: 'contact' }),
    })
    expect(response.statusCode, serverErrors(app)).toBe(field.isRequired ? 400 : 202)
    if (field.isRequired) {
      expect(response.json()).toEqual({ status: 'invalid', errors: expected })
    }
  })

  it('survives the round trip of a form posted without JavaScript', async () => {
    // Another field is wrong, so the page comes back with this field's value kept.
    const other = CONTACT_FIELDS.find((candidate) => candidate !== field && candidate.isRequired)
    const post = new URLSearchParams({ ...VALID, form: 'contact', [other?.name ?? '']: '' })
    const response = await app.inject({
      method: 'POST',
      url: '/api/contact',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      payload: await withToken(post.toString()),
    })
    expect(response.statusCode, serverErrors(app)).toBe(400)
    const kept =
      field.kind === 'select'
        ? `<option value="${String(VALID[field.name])}" selected="">`
        : html(VALID[field.name])
    expect(response.body).toContain(kept)
  })

  it('appears in the lead e-mail', async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: await withToken({ ...VALID, form: 'contact', locale: 'de' }),
    })
    expect(response.statusCode, serverErrors(app)).toBe(202)
    const { id } = response.json<{ id: string }>()
    const delivered = () => smtp.received.find(({ mail }) => mail.messageId?.includes(id))
    await eventually(() => delivered() !== undefined)
    const text = delivered()?.mail.text ?? ''
    expect(text).toContain(String(get(texts('de', 'mail'), field.name)))
    // A choice by its name (a service's, a package's), as the page shows it.
    const option = fieldOptions(field, 'contact').find(({ value }) => value === VALID[field.name])
    const shown = option ? app.i18n.getFixedT('de', [...MAIL_NAMESPACES])(option.label) : undefined
    expect(text).toContain(shown ?? VALID[field.name])
  })
})
