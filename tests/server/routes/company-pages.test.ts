import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COMPANY } from '#shared/company.ts'
import { LOCALES, localizePath } from '#shared/locales.ts'
import { LOCALIZED_PAGES } from '#shared/pages.ts'
import { TEAM } from '#shared/team.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import { get, html, texts } from '#tests/helpers/locales.ts'
import { type PerLanguage, unwritten, written } from '#tests/helpers/per-language.ts'

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

/** The company's country as each language names it, spelled out here rather than computed. */
const COUNTRIES = [
  ['en', 'Germany'],
  ['de', 'Deutschland'],
  ['pl', 'Niemcy'],
] as const

/** The weekday hours as each language writes them, spelled out here rather than computed. */
const HOURS: PerLanguage<RegExp> = {
  en: /9:00\sAM–6:00\sPM \(Central European Time\)/,
  de: /09:00–18:00\sUhr \(Mitteleuropäische Zeit\)/,
  pl: /09:00–18:00 \(czas środkowoeuropejski\)/,
}

/** Elements that take only phrasing content, so an `<address>` (flow content) may not sit in them. */
const PHRASING_ONLY = new Set('span p a label button strong em small b i'.split(' '))
const VOID_ELEMENTS = new Set(
  'area br col embed hr img input link meta source track wbr'.split(' '),
)

/** A page's markup without scripts (which embed the raw texts), styles and comments. */
function markupOf(body: string): string {
  return body.replace(/<script\b[\s\S]*?<\/script>|<style\b[\s\S]*?<\/style>|<!--[\s\S]*?-->/g, '')
}

/**
 * Each `<address>` of a page with its ancestors' tag names, outermost first. React writes
 * well-formed markup, so a tag stack suffices once scripts, styles and comments are removed.
 */
function addresses(body: string): { ancestors: string[]; text: string }[] {
  const markup = markupOf(body)
  const open: string[] = []
  const found: { ancestors: string[]; text: string }[] = []
  for (const match of markup.matchAll(/<(\/?)([a-zA-Z][\w-]*)[^>]*?(\/?)>/g)) {
    const [, closing, name = '', selfClosing] = match
    const tag = name.toLowerCase()
    if (closing) {
      const index = open.lastIndexOf(tag)
      if (index >= 0) open.splice(index)
      continue
    }
    if (tag === 'address') {
      const end = markup.indexOf('</address>', match.index)
      const inner = markup.slice(match.index + match[0].length, end)
      found.push({ ancestors: [...open], text: inner.replace(/<br\/?>/g, '\n') })
    }
    if (!selfClosing && !VOID_ELEMENTS.has(tag)) open.push(tag)
  }
  return found
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
    expect(markupOf(body)).not.toContain('{{')
  })

  it.each(COUNTRIES)('in %s ends the address with the country, %s', async (locale, country) => {
    const body = await page(localizePath(locale, '/imprint'))
    const { address, contentResponsible } = COMPANY
    const street = html(address.street)
    const city = html(`${address.postalCode} ${address.city}`)
    expect(body).toContain(`<dd>${street}<br/>${city}<br/>${country}</dd>`)
    expect(body).toContain(`<dd>${html(contentResponsible)}, ${street}, ${city}, ${country}</dd>`)
  })
})

describe('postal address', () => {
  const pages = COUNTRIES.flatMap(([locale, country]) =>
    ['/', '/contact', '/imprint'].map((path) => [localizePath(locale, path), country] as const),
  )

  it.each(pages)('on %s is never inside phrasing content and names %s', async (url, country) => {
    const found = addresses(await page(url))
    expect(found.length, url).toBeGreaterThan(0)
    for (const { ancestors, text } of found) {
      expect(
        ancestors.filter((tag) => PHRASING_ONLY.has(tag)),
        url,
      ).toEqual([])
      expect(text.split('\n'), url).toEqual([
        html(COMPANY.legalName),
        html(COMPANY.address.street),
        html(`${COMPANY.address.postalCode} ${COMPANY.address.city}`),
        country,
      ])
    }
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
    // The prohibited uses, and the version history at the end.
    expect(body.match(/<ul class="legal-list">/g)).toHaveLength(2)
    expect(markupOf(body)).not.toContain('{{')
  })

  it.each(COUNTRIES)(
    'in %s name the company in %s as the contract party',
    async (locale, country) => {
      const body = await page(localizePath(locale, '/terms-of-service'))
      const { address } = COMPANY
      expect(body).toContain(
        html(
          `${COMPANY.legalName}, ${address.street}, ${address.postalCode} ${address.city}, ${country}`,
        ),
      )
    },
  )
})

describe('privacy policy', () => {
  it.each(PRIVACY_DATES)(
    'in %s lists its first publication (22 May 2024) in the local format, and its processors',
    async (locale, date) => {
      const body = await page(localizePath(locale, '/privacy-policy'))
      expect(body).toContain(date)
      expect(body).toContain(html(COMPANY.hosting.provider))
      expect(body).toContain(html(COMPANY.mailProvider))
      expect(body).toContain(html(COMPANY.supervisoryAuthority.name))
    },
  )
})

describe('cookie policy', () => {
  it.each(LOCALES)('in %s lists the language cookie and the reload note', async (locale) => {
    const body = await page(localizePath(locale, '/cookie-policy'))
    expect(body.match(/<th scope="row">/g)).toHaveLength(2)
    expect(body).toContain('<th scope="row"><code>i18n_redirected</code></th>')
    expect(body).toContain('<th scope="row"><code>modernwerk:reload:&lt;path&gt;</code></th>')
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
    expect(body).toContain('"@type":"AboutPage"')
  })

  it.each(LOCALES)('the contact page in %s has the form, hours and details', async (locale) => {
    const body = await page(`${localizePath(locale, '/contact')}?service=cloud`)
    expect(body).toContain('name="subject"')
    expect(body).toMatch(/<option value="cloud" selected="">/)
    expect(body).toContain(html(get(texts(locale, 'contact'), 'hours.support'), locale))
    expect(body).toContain(`href="mailto:${COMPANY.email}"`)
  })

  // German time all year, in the language's own notation and zone name (summer time too).
  it.each(written(HOURS))(
    'the contact page in %s states the hours as its readers write them',
    async (locale, hours) => {
      expect(await page(localizePath(locale, '/contact'))).toMatch(hours)
    },
  )
  it.skip.each(unwritten(HOURS))('%s: add its notation of the hours to HOURS', () => {})

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

describe('testimonials', () => {
  it.each([
    ['en', 'Dr. Sabine Krüger'],
    ['de', 'Dr. Sabine Krüger'],
    ['pl', 'dr Sabine Krüger'],
  ] as const)('write a doctorate the way %s does', async (locale, name) => {
    const body = await page(localizePath(locale, '/'))
    expect(body).toMatch(
      new RegExp(`<strong>${name.replace('.', '\\.').replace(' ', '[ \\u00a0]')}`),
    )
    if (locale === 'pl') expect(body).not.toContain('Dr. Sabine')
  })
})
