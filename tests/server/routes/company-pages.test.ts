import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COMPANY } from '#shared/company.ts'
import { LOCALES, localizePath } from '#shared/locales.ts'
import { LOCALIZED_PAGES } from '#shared/pages.ts'
import { TEAM } from '#shared/team.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import { get, html, texts } from '#tests/helpers/locales.ts'

let app: FastifyInstance

beforeAll(async () => {
  app = await buildTestApp()
})

afterAll(async () => {
  await app.close()
})

async function page(url: string) {
  const response = await app.inject({ method: 'GET', url })
  expect(response.statusCode, url).toBe(200)
  return response.body
}

/** The date as each language writes it, spelled out here rather than computed by the code under test. */
const PRIVACY_DATES = [
  ['en', 'May 22, 2024'],
  ['de', '22. Mai 2024'],
  ['pl', '22 maja 2024'],
] as const

describe('imprint', () => {
  it.each(LOCALES)('in %s shows the facts § 5 DDG requires', async (locale) => {
    const body = await page(localizePath(locale, '/imprint'))
    const { address, register } = COMPANY
    for (const fact of [
      COMPANY.legalName,
      address.street,
      `${address.postalCode} ${address.city}`,
      register.court,
      register.number,
      COMPANY.vatId,
      COMPANY.email,
      COMPANY.phone,
      ...COMPANY.partners,
    ]) {
      expect(body, fact).toContain(html(fact))
    }
    expect(body).toContain(html(get(texts(locale, 'imprint'), 'labels.vatId'), locale))
  })
})

describe('terms of service', () => {
  it.each(LOCALES)('in %s have 13 numbered sections and the prohibited uses', async (locale) => {
    const body = await page(localizePath(locale, '/terms-of-service'))
    const headings = [...body.matchAll(/<h2 id="(\w+)-title">([^<]+)<\/h2>/g)]
    expect(headings.map(([, id]) => id)).toHaveLength(14)
    const numbered = headings.slice(0, 13).map(([, , text]) => text)
    numbered.forEach((text, index) => expect(text).toMatch(new RegExp(`(^|§\\s)${index + 1}\\.? `)))
    expect(headings[13]?.[2]).toBe(
      html(get(texts(locale, 'terms'), 'sections.prohibitedUses.heading'), locale),
    )
    expect(body.match(/<ul class="legal-list">/g)).toHaveLength(1)
  })
})

describe('privacy policy', () => {
  it.each(PRIVACY_DATES)('in %s is dated 22 May 2024 in the local format', async (locale, date) => {
    const body = await page(localizePath(locale, '/privacy-policy'))
    expect(body).toContain(date)
    expect(body).toContain(html(COMPANY.hosting.provider))
    expect(body).toContain(html(COMPANY.mailProvider))
    expect(body).toContain(html(COMPANY.supervisoryAuthority.name))
  })
})

describe('cookie policy', () => {
  it.each(LOCALES)('in %s lists exactly the language cookie', async (locale) => {
    const body = await page(localizePath(locale, '/cookie-policy'))
    expect(body.match(/<th scope="row">/g)).toHaveLength(1)
    expect(body).toContain('<th scope="row"><code>i18n_redirected</code></th>')
    expect(body).toContain(html(get(texts(locale, 'cookies'), 'table.languageLifetime'), locale))
  })
})

describe('about and team', () => {
  it.each(LOCALES)('the about page in %s links both profiles, which answer', async (locale) => {
    const body = await page(localizePath(locale, '/about'))
    for (const member of TEAM) {
      const href = localizePath(locale, `/team/${member.slug}`)
      expect(body).toContain(`href="${href}"`)
      const profile = await page(href)
      expect(profile).toContain(`<h1 id="member-name">${member.name}</h1>`)
      expect(profile).toMatch(
        /<img class="portrait profile-portrait" src="\/assets\/[\w-]+\.svg" width="480" height="560" alt="[^"]+"/,
      )
    }
    expect(body).toContain('"@type":"Organization"')
  })

  it.each(LOCALES)('the contact page in %s has the form, hours and details', async (locale) => {
    const body = await page(`${localizePath(locale, '/contact')}?service=cloud`)
    expect(body).toContain('name="subject"')
    expect(body).toMatch(/<option value="cloud" selected="">/)
    expect(body).toContain('9:00–18:00 CET')
    expect(body).toContain(html(get(texts(locale, 'contact'), 'hours.support'), locale))
    expect(body).toContain(`href="mailto:${COMPANY.email}"`)
  })

  it('ignores an unknown service in the query', async () => {
    const body = await page('/contact?service=%3Cscript%3E')
    expect(body).not.toMatch(/<option value="[a-z]+" selected/)
  })
})

describe('links', () => {
  it('every internal link of every page leads to a page of the route table', async () => {
    const known = new Set(LOCALIZED_PAGES.map(({ path }) => path))
    const broken: string[] = []
    for (const { path } of LOCALIZED_PAGES) {
      const body = await page(path)
      for (const [, href = ''] of body.matchAll(/<a [^>]*href="(\/[^"]*)"/g)) {
        const target = href.replace(/&amp;/g, '&').split(/[?#]/)[0] ?? ''
        if (!known.has(target)) broken.push(`${path} → ${href}`)
      }
    }
    expect(broken).toEqual([])
  })
})
