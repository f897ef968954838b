import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COMPANY } from '#shared/company.ts'
import { LOCALES, localizePath } from '#shared/locales.ts'
import { LOCALIZED_PAGES, type LocalizedPage } from '#shared/pages.ts'
import { TEAM, teamPath } from '#shared/team.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import { decodeEntities, jsonLdBlocks, visibleBreadcrumbs } from '#tests/helpers/page-head.ts'

// The structured data of every page, as a search engine reads it: one valid graph, the
// company described in full where a page is about it, one identity for it everywhere, and
// breadcrumbs that are the ones the visitor sees.

type Node = Record<string, unknown> & { '@type'?: string | string[]; '@id'?: string }
type GraphDocument = { '@context': string; '@graph': Node[] }

let app: FastifyInstance
let base: string
const graphs = new Map<string, GraphDocument>()
const documents = new Map<string, string>()

beforeAll(async () => {
  app = await buildTestApp()
  base = app.config.APP_BASE_URL
  for (const { path } of LOCALIZED_PAGES) {
    const html = (await app.inject(path)).body
    documents.set(path, html)
    const blocks = jsonLdBlocks(html)
    expect(blocks, path).toHaveLength(1)
    graphs.set(path, blocks[0] as GraphDocument)
  }
})

afterAll(async () => {
  await app.close()
})

const graphOf = (path: string) => graphs.get(path)?.['@graph'] ?? []
const nodesOfType = (path: string, type: string) =>
  graphOf(path).filter((node) => node['@type'] === type)
const organizationId = () => `${base}/#organization`

/** Every string in the graph that is a URL, with where it was found. */
function urls(value: unknown, at = ''): [string, string][] {
  if (typeof value === 'string') {
    return /^https?:\/\//.test(value) && !value.startsWith('https://schema.org')
      ? [[at, value]]
      : []
  }
  if (Array.isArray(value)) return value.flatMap((item, index) => urls(item, `${at}[${index}]`))
  if (value && typeof value === 'object') {
    return Object.entries(value).flatMap(([key, item]) => urls(item, `${at}.${key}`))
  }
  return []
}

/** Every `{ "@id": … }` reference (an object with nothing but its id). */
function references(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(references)
  if (value && typeof value === 'object') {
    const entries = Object.entries(value)
    if (entries.length === 1 && entries[0]?.[0] === '@id') return [String(entries[0][1])]
    return entries.flatMap(([, item]) => references(item))
  }
  return []
}

const COMPANY_PAGES = LOCALIZED_PAGES.filter((entry) =>
  ['home', 'contact', 'imprint'].includes(entry.id),
)

describe(`structured data on the ${LOCALIZED_PAGES.length} pages`, () => {
  it.each(LOCALIZED_PAGES.map((entry) => [entry.path, entry] as const))(
    '%s: one graph in its language, URLs absolute on our origin, the company by one @id',
    (path, { locale }: LocalizedPage) => {
      const graph = graphs.get(path)
      expect(graph?.['@context']).toBe('https://schema.org')
      const page = graphOf(path)[0]
      expect(page?.['@id']).toBe(`${base}${path}#webpage`)
      expect(page?.url).toBe(`${base}${path}`)
      expect(page?.inLanguage).toBe(locale)
      const title = /<title>([^<]*)<\/title>/.exec(documents.get(path) ?? '')?.[1] ?? ''
      expect(page?.name).toBe(decodeEntities(title))
      for (const [at, url] of urls(graph)) {
        expect(url.startsWith(`${base}/`) || url === base, `${at}: ${url}`).toBe(true)
      }
      // Each node's @id is unique; every reference to the company is its one identity.
      const ids = graphOf(path).map((node) => node['@id'])
      expect(new Set(ids).size).toBe(ids.length)
      for (const id of references(graph).filter((ref) => ref.includes('organization'))) {
        expect(id).toBe(organizationId())
      }
      expect(page?.publisher).toEqual({ '@id': organizationId() })
    },
  )

  it.each(COMPANY_PAGES.map((entry) => [entry.path, entry] as const))(
    '%s describes the company in full, from its facts',
    (path, { locale }: LocalizedPage) => {
      const [company, ...more] = nodesOfType(path, 'ProfessionalService')
      expect(more).toHaveLength(0)
      expect(company?.['@id']).toBe(organizationId())
      expect(company).toMatchObject({
        name: COMPANY.brand,
        url: `${base}/`,
        legalName: COMPANY.legalName,
        foundingDate: String(COMPANY.foundingYear),
        email: COMPANY.email,
        telephone: COMPANY.phone,
        vatID: COMPANY.vatId,
        address: {
          '@type': 'PostalAddress',
          streetAddress: COMPANY.address.street,
          postalCode: COMPANY.address.postalCode,
          addressLocality: COMPANY.address.city,
          addressCountry: COMPANY.address.country,
        },
        contactPoint: {
          '@type': 'ContactPoint',
          email: COMPANY.email,
          telephone: COMPANY.phone,
          hoursAvailable: {
            '@type': 'OpeningHoursSpecification',
            dayOfWeek: ['Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday'],
            opens: COMPANY.businessHours.weekdays.opens.padStart(5, '0'),
            closes: COMPANY.businessHours.weekdays.closes.padStart(5, '0'),
          },
        },
      })
      const contact = company?.contactPoint as { availableLanguage: { alternateName: string }[] }
      expect(contact.availableLanguage.map((language) => language.alternateName)).toEqual([
        ...LOCALES,
      ])
      // The founders are the people of the team pages, by the same identity.
      const founders = company?.founder as { '@id': string; url: string }[]
      expect(founders.map((founder) => founder['@id'])).toEqual(
        TEAM.map((member) => `${base}${teamPath(member.slug)}#person`),
      )
      for (const [index, member] of TEAM.entries()) {
        const profile = localizePath(locale, teamPath(member.slug))
        expect(founders[index]?.url).toBe(`${base}${profile}`)
        const [person] = nodesOfType(profile, 'Person')
        expect(person?.['@id']).toBe(founders[index]?.['@id'])
        expect(person?.worksFor).toEqual({ '@id': organizationId() })
      }
      const [website] = nodesOfType(path, 'WebSite')
      expect(website).toMatchObject({
        '@id': `${base}/#website`,
        url: `${base}/`,
        name: COMPANY.brand,
        publisher: { '@id': organizationId() },
      })
    },
  )

  it('pages not about the company refer to it without describing it', () => {
    for (const entry of LOCALIZED_PAGES.filter((candidate) => !COMPANY_PAGES.includes(candidate))) {
      expect(nodesOfType(entry.path, 'ProfessionalService'), entry.path).toHaveLength(0)
    }
  })

  it.each(LOCALIZED_PAGES.filter((entry) => entry.id !== 'home').map((entry) => entry.path))(
    '%s lists the breadcrumbs the visitor sees',
    (path) => {
      const [list, ...more] = nodesOfType(path, 'BreadcrumbList')
      expect(more).toHaveLength(0)
      const items = list?.itemListElement as { position: number; name: string; item: string }[]
      const visible = visibleBreadcrumbs(documents.get(path) ?? '')
      expect(visible.length).toBeGreaterThanOrEqual(2)
      expect(items.map((item) => item.position)).toEqual(visible.map((_, index) => index + 1))
      expect(items.map((item) => item.name)).toEqual(visible.map((crumb) => crumb.name))
      // Linked crumbs point where the list says; the last is the page itself.
      expect(items.slice(0, -1).map((item) => item.item)).toEqual(
        visible.slice(0, -1).map((crumb) => `${base}${crumb.href}`),
      )
      expect(items.at(-1)?.item).toBe(`${base}${path}`)
      expect(visible.at(-1)?.href).toBeUndefined()
    },
  )

  it.each(LOCALES)('the home page in %s has no breadcrumbs, seen or listed', (locale) => {
    const path = localizePath(locale, '/')
    expect(nodesOfType(path, 'BreadcrumbList')).toHaveLength(0)
    expect(visibleBreadcrumbs(documents.get(path) ?? '')).toHaveLength(0)
  })

  it('a service page describes its service, provided by the company', () => {
    const [service] = nodesOfType('/pl/services/cloud-infrastructure', 'Service')
    expect(service).toMatchObject({
      '@id': `${base}/pl/services/cloud-infrastructure#service`,
      name: 'Infrastruktura chmurowa',
      provider: { '@id': organizationId() },
      areaServed: [...COMPANY.areaServed],
    })
    expect(graphOf('/pl/services/cloud-infrastructure')[0]?.mainEntity).toEqual({
      '@id': service?.['@id'],
    })
  })
})
