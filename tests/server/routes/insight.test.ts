import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { allLeads, allPageViews } from '#server/services/insight/insight.ts'
import { TRAFFIC_SOURCE_IDS } from '#server/services/insight/traffic-sources.ts'
import { VIA_FIELD, viaPage } from '#shared/contact-fields.ts'
import { LOCALES } from '#shared/locales.ts'
import { LOCALIZED_PAGES, PAGES } from '#shared/pages.ts'
import { SERVICES } from '#shared/services.ts'
import { pageEdition } from '#server/render/page-cache.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import { eventually } from '#tests/helpers/eventually.ts'
import { withToken } from '#tests/helpers/form-token.ts'
import { sampleIn, sumOf } from '#tests/helpers/metrics.ts'
import { freePort } from '#tests/helpers/net.ts'

/**
 * Insight (docs/insight.md#insight-which-pages-bring-leads): real requests through the app over
 * HTTP count as views and leads exactly as specified, under labels from the site's tables only, and
 * nothing a visitor sends can add a series.
 */

/** What a person's browser sends when it loads a page. */
const BROWSER = {
  'user-agent':
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'sec-fetch-dest': 'document',
  'sec-fetch-mode': 'navigate',
}

let app: FastifyInstance
let origin: string

beforeAll(async () => {
  const port = await freePort()
  origin = `http://127.0.0.1:${port}`
  app = await buildTestApp({ APP_BASE_URL: origin, CONTACT_RATE_MAX: '1000' })
  await app.listen({ port, host: '127.0.0.1' })
})

afterAll(async () => {
  await app.close()
})

async function exposition(): Promise<string> {
  return (await fetch(`${origin}/metrics`)).text()
}

function viewSample(page: string, locale: string, source: string): string {
  return `page_views_total{page="${page}",locale="${locale}",source="${source}"}`
}

function seriesOf(text: string, name: string): string[] {
  return text
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`))
    .map((line) => line.slice(0, line.lastIndexOf(' ')))
}

/** How much `act` changed the views in all (and in the one series given). */
async function viewsAfter(act: () => Promise<unknown>, sample?: string) {
  const before = await exposition()
  await act()
  const after = await exposition()
  return {
    all: sumOf(after, 'page_views_total') - sumOf(before, 'page_views_total'),
    one: sample ? (sampleIn(after, sample) ?? NaN) - (sampleIn(before, sample) ?? NaN) : 0,
  }
}

function load(path: string, headers: Record<string, string> = {}, method = 'GET') {
  return fetch(`${origin}${path}`, {
    method,
    redirect: 'manual',
    headers: { ...BROWSER, ...headers },
  }).then(async (response) => {
    // Read to the end, so the request is complete (and counted) when this resolves.
    await response.clone().arrayBuffer()
    return response
  })
}

describe('page views', () => {
  it('every series exists from the start: pages × locales × sources, at 0', async () => {
    const series = seriesOf(await exposition(), 'page_views_total')
    expect(series).toHaveLength(PAGES.length * LOCALES.length * TRAFFIC_SOURCE_IDS.length)
    expect(series).toHaveLength(allPageViews().length)
  })

  it.each(LOCALIZED_PAGES.map((entry) => [entry.path, entry.id, entry.locale] as const))(
    'a person loading %s counts one view of %s in %s',
    async (path, id, locale) => {
      const counted = await viewsAfter(
        async () => {
          const response = await load(path, { 'accept-language': locale })
          expect(response.status).toBe(200)
        },
        viewSample(id, locale, 'none'),
      )
      expect(counted).toEqual({ all: 1, one: 1 })
    },
  )

  it.each([
    ['https://www.google.de/', {}, 'google'],
    ['https://www.linkedin.com/feed/', {}, 'linkedin'],
    ['https://partner.example/a/very/private/path?user=42', {}, 'other'],
    [undefined, { utm: 'email' }, 'email'],
  ] as const)('a visit from %s %o counts under its source %s', async (referer, query, source) => {
    const path = 'utm' in query ? `/de/services?utm_source=${query.utm}` : '/de/services'
    const counted = await viewsAfter(
      () => load(path, referer ? { referer } : {}),
      viewSample('services', 'de', source),
    )
    expect(counted).toEqual({ all: 1, one: 1 })
  })

  it('a campaign link answered from memory still counts under its campaign', async () => {
    const clean = await load('/pl/services')
    await eventually(
      () => app.pageCache.get('/pl/services', pageEdition('/pl/services')) !== undefined,
    )
    const counted = await viewsAfter(
      async () => {
        const campaign = await load('/pl/services?utm_source=newsletter&utm_medium=email')
        // The page without the query, with its validator: one page kept, whatever the campaign.
        expect(campaign.headers.get('etag')).toBe(clean.headers.get('etag'))
      },
      viewSample('services', 'pl', 'email'),
    )
    expect(counted).toEqual({ all: 1, one: 1 })
  })

  it('a page the browser revalidates (304) is a view too', async () => {
    const first = await load('/pl/about')
    const etag = first.headers.get('etag') ?? ''
    expect(etag).not.toBe('')
    const counted = await viewsAfter(
      async () => {
        const response = await load('/pl/about', { 'if-none-match': etag })
        expect(response.status).toBe(304)
      },
      viewSample('about', 'pl', 'none'),
    )
    expect(counted.one).toBe(1)
  })

  it.each([
    [
      'a search engine crawler',
      '/services',
      { 'user-agent': 'Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)' },
    ],
    ['a request without a user agent', '/services', { 'user-agent': '' }],
    ['a script (curl)', '/services', { 'user-agent': 'curl/8.5.0' }],
    ['a prefetch (Sec-Purpose)', '/services', { 'sec-purpose': 'prefetch' }],
    ['a prerender (Sec-Purpose)', '/services', { 'sec-purpose': 'prefetch;prerender' }],
    ['a prefetch (Purpose)', '/services', { purpose: 'prefetch' }],
    ['a fetch, not a document', '/services', { 'sec-fetch-dest': 'empty' }],
    ['a page in a frame', '/services', { 'sec-fetch-dest': 'iframe' }],
    ['an unknown path (404)', '/no-such-page', {}],
    ['a path outside the table (404)', '/de/services/unknown', {}],
    ['a redirect to the canonical path', '/services/', {}],
    ['the page a form post without JavaScript returns to', '/contact?sent=contact', {}],
    ['the sitemap', '/sitemap.xml', {}],
    ['robots.txt', '/robots.txt', {}],
    ['the favicon', '/favicon.ico', {}],
    ['the token route', '/api/contact/token?form=home&locale=en', {}],
    ['an API path', '/api/nothing', {}],
  ])('%s is not counted', async (_case, path, headers) => {
    const counted = await viewsAfter(() => load(path, headers))
    expect(counted.all).toBe(0)
  })

  it('a HEAD request is not counted', async () => {
    expect((await viewsAfter(() => load('/services', {}, 'HEAD'))).all).toBe(0)
  })

  it('a script or stylesheet of the page is not counted', async () => {
    const html = await (await load('/')).text()
    const assets = [...html.matchAll(/(?:src|href)="(\/assets\/[^"]+)"/g)].map((match) => match[1])
    expect(assets.length).toBeGreaterThan(0)
    const counted = await viewsAfter(() =>
      Promise.all(assets.map((asset) => load(asset ?? '', { 'sec-fetch-dest': 'script' }))),
    )
    expect(counted.all).toBe(0)
  })

  it('random paths, referrers, campaigns and user agents add no series and leave no trace', async () => {
    const random = () => Math.random().toString(36).slice(2)
    const sent: string[] = []
    // Enough to cross every page and both kinds of referrer many times; each with a query is
    // rendered anew, so on a busy machine this takes a while (a generous timeout, below).
    for (let index = 0; index < 120; index++) {
      const marker = `trace${random()}`
      sent.push(marker)
      const page = LOCALIZED_PAGES[index % LOCALIZED_PAGES.length]?.path ?? '/'
      const path = index % 3 === 0 ? `/${marker}` : `${page}?utm_source=${marker}&q=${marker}`
      await load(path, {
        referer: index % 2 === 0 ? `https://${marker}.example/${marker}` : marker,
        'user-agent': `${BROWSER['user-agent']} ${marker}`,
      })
    }
    const text = await exposition()
    expect(seriesOf(text, 'page_views_total')).toHaveLength(allPageViews().length)
    expect(seriesOf(text, 'contact_leads_total')).toHaveLength(allLeads().length)
    expect(sent.filter((marker) => text.includes(marker))).toEqual([])
  }, 90_000)
})

describe('leads', () => {
  function leadSample(form: string, page: string, locale: string, interest: string): string {
    return `contact_leads_total{form="${form}",page="${page}",locale="${locale}",interest="${interest}"}`
  }

  const MESSAGE = {
    name: 'Ada Lovelace',
    email: 'ada@example.com',
    subject: 'Moving our ERP to Germany',
    message: 'We would like to move our ERP servers to a German data centre this year.',
  }

  async function send(body: Record<string, string>, asForm = false) {
    const signed = await withToken(body)
    const response = await fetch(`${origin}/api/contact`, {
      method: 'POST',
      redirect: 'manual',
      headers: {
        'content-type': asForm ? 'application/x-www-form-urlencoded' : 'application/json',
        'sec-fetch-site': 'same-origin',
      },
      body: asForm ? new URLSearchParams(signed).toString() : JSON.stringify(signed),
    })
    expect(response.status).toBe(asForm ? 303 : 202)
  }

  async function leadsAfter(act: () => Promise<unknown>, sample: string) {
    const before = await exposition()
    await act()
    const after = await exposition()
    return {
      all: sumOf(after, 'contact_leads_total') - sumOf(before, 'contact_leads_total'),
      one: (sampleIn(after, sample) ?? NaN) - (sampleIn(before, sample) ?? NaN),
    }
  }

  it('every series exists from the start at 0', async () => {
    expect(seriesOf(await exposition(), 'contact_leads_total')).toHaveLength(allLeads().length)
  })

  it("the home page's form counts under the home page, its locale and the interest", async () => {
    const counted = await leadsAfter(
      () => send({ ...MESSAGE, form: 'home', locale: 'de', service: 'modernization' }),
      leadSample('home', 'home', 'de', 'modernization'),
    )
    expect(counted).toEqual({ all: 1, one: 1 })
  })

  it("the contact page's form counts under the contact page", async () => {
    const counted = await leadsAfter(
      () => send({ ...MESSAGE, form: 'contact', locale: 'pl', service: 'other' }),
      leadSample('contact', 'contact', 'pl', 'other'),
    )
    expect(counted).toEqual({ all: 1, one: 1 })
  })

  it.each(SERVICES.map((service) => [service.slug, service.interest] as const))(
    "the contact form opened by %s's call to action counts under that page",
    async (_slug, interest) => {
      const via = viaPage('contact', { service: interest }) ?? ''
      expect(via).toMatch(/^service-/)
      const counted = await leadsAfter(
        () =>
          // The visitor chose another interest after all: the page still brought the lead.
          send({ ...MESSAGE, form: 'contact', locale: 'en', service: 'other', [VIA_FIELD]: via }),
        leadSample('contact', via, 'en', 'other'),
      )
      expect(counted).toEqual({ all: 1, one: 1 })
    },
  )

  it('a plain form post (no JavaScript) with the service page keeps it', async () => {
    const via = viaPage('contact', { service: 'security' }) ?? ''
    const counted = await leadsAfter(
      () =>
        send(
          { ...MESSAGE, form: 'contact', locale: 'de', service: 'security', [VIA_FIELD]: via },
          true,
        ),
      leadSample('contact', via, 'de', 'security'),
    )
    expect(counted).toEqual({ all: 1, one: 1 })
  })

  it.each([
    ['a page that is no service page', 'contact', 'about'],
    ['made-up text', 'contact', 'https://spam.example/'],
    ['a service page on the home form', 'home', 'service-cloud-infrastructure'],
  ])('a via field naming %s is ignored', async (_case, form, via) => {
    const counted = await leadsAfter(
      () => send({ ...MESSAGE, form, locale: 'en', service: 'cloud', [VIA_FIELD]: via }),
      leadSample(form, form, 'en', 'cloud'),
    )
    expect(counted).toEqual({ all: 1, one: 1 })
  })

  it('a post the spam defence drops or refuses is no lead', async () => {
    const before = sumOf(await exposition(), 'contact_leads_total')
    const body = { ...MESSAGE, form: 'home', locale: 'en', service: 'cloud', website: 'x' }
    const dropped = await fetch(`${origin}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify(await withToken(body)),
    })
    expect(dropped.status).toBe(202)
    const invalid = await fetch(`${origin}/api/contact`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'sec-fetch-site': 'same-origin' },
      body: JSON.stringify(await withToken({ ...MESSAGE, form: 'home', email: 'no' })),
    })
    expect(invalid.status).toBe(400)
    expect(sumOf(await exposition(), 'contact_leads_total')).toBe(before)
  })
})

describe('the contact page opened by a call to action', () => {
  it.each(SERVICES.map((service) => [service.interest] as const))(
    'with ?service=%s carries the service page in its form',
    async (interest) => {
      const html = await (await load(`/contact?service=${interest}`)).text()
      const via = viaPage('contact', { service: interest })
      expect(html).toContain(`name="${VIA_FIELD}" value="${via}"`)
    },
  )

  it('opened directly it carries none', async () => {
    const html = await (await load('/contact')).text()
    expect(html).not.toContain(`name="${VIA_FIELD}"`)
  })
})
