import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOCALES, localizePath } from '#shared/locales.ts'
import { SECURITY_FRAMEWORKS } from '#shared/service-sections.ts'
import { SUPPORT_TIERS } from '#shared/services.ts'
import { SERVICES, serviceNamespace, servicePath } from '#shared/services.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import { get, html, texts, type Json } from '#tests/helpers/locales.ts'

let app: FastifyInstance

beforeAll(async () => {
  app = await buildTestApp()
})

afterAll(async () => {
  await app.close()
})

function h1Count(body: string) {
  return (body.match(/<h1[\s>]/g) ?? []).length
}

describe('services overview', () => {
  it.each(LOCALES)(
    '/services in %s lists every service of the table with its link',
    async (locale) => {
      const copy = texts(locale, 'services')
      const response = await app.inject({ method: 'GET', url: localizePath(locale, '/services') })
      expect(response.statusCode).toBe(200)
      expect(response.body).toContain(`<title>${html(get(copy, 'meta.title'), locale)}</title>`)
      expect(h1Count(response.body)).toBe(1)
      expect(response.body).toContain(html(get(copy, 'hero.title'), locale))
      for (const { slug } of SERVICES) {
        const card = texts(locale, serviceNamespace(slug))
        expect(response.body).toContain(`href="${localizePath(locale, servicePath(slug))}"`)
        expect(response.body).toContain(html(get(card, 'card.name'), locale))
        expect(response.body).toContain(html(get(card, 'card.summary'), locale))
      }
    },
  )
})

describe('service pages', () => {
  const cases = SERVICES.flatMap(({ slug }) => LOCALES.map((locale) => ({ slug, locale })))

  it.each(cases)('$slug in $locale shows the whole pattern', async ({ slug, locale }) => {
    const copy = texts(locale, serviceNamespace(slug))
    const response = await app.inject({
      method: 'GET',
      url: localizePath(locale, servicePath(slug)),
    })
    expect(response.statusCode).toBe(200)
    expect(response.body).toMatch(new RegExp(`^<!DOCTYPE html><html lang="${locale}"`))
    expect(response.body).toContain(`<title>${html(get(copy, 'meta.title'), locale)}</title>`)
    expect(h1Count(response.body)).toBe(1)
    for (const path of ['hero.badge', 'hero.title', 'hero.subtitle', 'cta.title', 'cta.button']) {
      expect(response.body, path).toContain(html(get(copy, path), locale))
    }
    const sections = ['benefits.items', 'process.steps', 'faq.items'] as const
    for (const section of sections) {
      for (const item of get(copy, section) as Json[]) {
        expect(response.body).toContain(html(item.title ?? item.question, locale))
      }
    }
    expect((get(copy, 'process.steps') as Json[]).length).toBe(4)
    for (const group of get(copy, 'offerings.groups') as { title: string; items: string[] }[]) {
      expect(response.body).toContain(html(group.title, locale))
      for (const item of group.items) expect(response.body).toContain(html(item, locale))
    }
    // Structured data as a data block, and the call to action with the service preselected.
    expect(response.body).toContain('<script type="application/ld+json">')
    expect(response.body).toMatch(
      new RegExp(`href="${localizePath(locale, '/contact')}\\?service=[a-z]+"`),
    )
  })

  it.each(LOCALES)(
    'security & compliance in %s: capabilities, nine frameworks, four steps',
    async (locale) => {
      const copy = texts(locale, serviceNamespace('security-compliance'))
      const response = await app.inject({
        method: 'GET',
        url: localizePath(locale, servicePath('security-compliance')),
      })
      const capabilities = get(copy, 'capabilities.items') as Record<string, Json>
      expect(Object.keys(capabilities).length).toBeGreaterThan(0)
      for (const capability of Object.values(capabilities)) {
        expect(response.body).toContain(html(capability.title, locale))
      }
      for (const key of SECURITY_FRAMEWORKS) {
        expect(response.body).toContain(
          `<strong class="framework-name">${html(get(copy, `frameworks.items.${key}.name`), locale)}</strong>`,
        )
      }
      expect(response.body.match(/class="framework-name"/g)).toHaveLength(9)
      expect(response.body.match(/class="process-step"/g)).toHaveLength(4)
      expect(response.body).toContain(`href="${localizePath(locale, '/contact')}?service=security"`)
    },
  )

  it.each(LOCALES)(
    'managed IT in %s: three tiers, the standard one recommended',
    async (locale) => {
      const copy = texts(locale, serviceNamespace('managed-it'))
      const response = await app.inject({
        method: 'GET',
        url: localizePath(locale, servicePath('managed-it')),
      })
      expect(response.body.match(/class="tier( tier-recommended)?"/g)).toHaveLength(3)
      expect(response.body.match(/class="tier-flag"/g)).toHaveLength(1)
      expect(response.body).toContain(
        `<p class="tier-flag">${html(get(copy, 'tiers.recommended'), locale)}</p>`,
      )
      const recommended = response.body.slice(response.body.indexOf('tier tier-recommended'))
      expect(recommended).toContain(html(get(copy, 'tiers.items.standard.name'), locale))
      for (const { key } of SUPPORT_TIERS) {
        expect(response.body).toContain(html(get(copy, `tiers.items.${key}.package`), locale))
        expect(response.body).toContain(
          `href="${localizePath(locale, '/contact')}?service=managed&amp;plan=${key}"`,
        )
      }
    },
  )

  it('pages of different services do not read alike', () => {
    const titles = new Set(
      SERVICES.map(({ slug }) => get(texts('en', serviceNamespace(slug)), 'hero.title')),
    )
    expect(titles.size).toBe(SERVICES.length)
  })
})
