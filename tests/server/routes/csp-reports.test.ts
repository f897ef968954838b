import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { CLIENT_ERROR_RATE_LIMIT } from '#server/routes/client-errors.ts'
import { CSP_REPORT_PATH } from '#server/routes/csp-reports.ts'
import { VIOLATION_DIRECTIVES, VIOLATION_SOURCES } from '#server/services/reports/csp-reports.ts'
import { LOCALIZED_PAGES } from '#shared/pages.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import { sampleIn } from '#tests/helpers/metrics.ts'

const SITE = 'https://www.example.de'
const CDN = 'https://cdn.example.net'

/** A report as Chromium's Reporting API sends it (`application/reports+json`, in a batch). */
function chromiumReport(body: Record<string, unknown>) {
  return {
    type: 'csp-violation',
    age: 12,
    url: `${SITE}/de/contact?utm_source=newsletter`,
    user_agent: 'Mozilla/5.0 (X11; Linux x86_64) Chrome/156.0.0.0 Safari/537.36',
    body: {
      documentURL: `${SITE}/de/contact?utm_source=newsletter`,
      disposition: 'enforce',
      originalPolicy: "default-src 'self'",
      statusCode: 200,
      ...body,
    },
  }
}

/** A report as Firefox sends it to `report-uri` (`application/csp-report`). */
function firefoxReport(report: Record<string, unknown>) {
  return {
    'csp-report': {
      'document-uri': `${SITE}/pl/about#team`,
      referrer: '',
      'original-policy': "default-src 'self'",
      disposition: 'enforce',
      ...report,
    },
  }
}

const MIXED_BATCH = [
  // The site's own script writes a string into innerHTML: a broken build.
  chromiumReport({
    effectiveDirective: 'require-trusted-types-for',
    blockedURL: 'trusted-types-sink',
    sourceFile: `${SITE}/assets/contact-Ab12.js`,
    sample: 'Element innerHTML|<b>Jan Kowalski</b>',
  }),
  chromiumReport({ effectiveDirective: 'script-src-elem', blockedURL: `${CDN}/assets/x.js` }),
  chromiumReport({
    effectiveDirective: 'script-src-elem',
    blockedURL: 'inline',
    sourceFile: 'chrome-extension://abcdefghijklmnop/content.js',
  }),
  chromiumReport({ effectiveDirective: 'style-src-attr', blockedURL: 'inline' }),
  chromiumReport({ effectiveDirective: 'script-src', blockedURL: 'eval' }),
  chromiumReport({ effectiveDirective: 'img-src', blockedURL: 'https://tracker.example/p.gif' }),
  chromiumReport({ effectiveDirective: 'fenced-frame-src', blockedURL: 'https://ad.example/' }),
  // Other kinds of report the Reporting API might send are not counted.
  { type: 'deprecation', url: `${SITE}/`, body: { id: 'x', message: 'y' } },
]

type Answer = { statusCode: number; headers: Record<string, unknown>; body: string }

function post(app: FastifyInstance, type: string, payload: unknown, ip = '192.0.2.10') {
  return app.inject({
    method: 'POST',
    url: CSP_REPORT_PATH,
    headers: { 'content-type': type },
    payload: typeof payload === 'string' ? payload : JSON.stringify(payload),
    remoteAddress: ip,
  }) as Promise<Answer>
}

describe('CSP violation reports', () => {
  let app: FastifyInstance
  const lines: string[] = []
  beforeAll(async () => {
    app = await buildTestApp(
      { APP_BASE_URL: SITE, CDN_URL: CDN },
      {
        logger: {
          level: 'info',
          stream: { write: (line: string) => void lines.push(line) },
        },
      },
    )
  })
  afterAll(() => app.close())
  afterEach(() => {
    vi.useRealTimers()
  })

  const metrics = async () => (await app.inject({ url: '/metrics' })).body
  const cspLines = async () =>
    (await metrics()).split('\n').filter((line) => line.startsWith('csp_violations_total{'))
  const count = (exposition: string, directive: string, source: string) =>
    sampleIn(exposition, `csp_violations_total{directive="${directive}",source="${source}"}`)
  const reportLines = (): Record<string, unknown>[] =>
    lines
      .filter((line) => line.includes('"CSP violation reported"'))
      .map((line) => JSON.parse(line) as Record<string, unknown>)

  it('every page names the endpoint: Reporting-Endpoints, report-to and report-uri', async () => {
    for (const { path } of LOCALIZED_PAGES.filter((_, index) => index % 7 === 0)) {
      const page = await app.inject({ url: path })
      expect(page.headers['reporting-endpoints'], path).toBe(`csp="${CSP_REPORT_PATH}"`)
      expect(page.headers['content-security-policy'], path).toContain(
        `report-to csp;report-uri ${CSP_REPORT_PATH}`,
      )
    }
  })

  it('has every directive and source class at 0 from the start, and no other series', async () => {
    const exposition = await metrics()
    for (const directive of VIOLATION_DIRECTIVES) {
      for (const source of VIOLATION_SOURCES) expect(count(exposition, directive, source)).toBe(0)
    }
    expect(
      exposition.split('\n').filter((line) => line.startsWith('csp_violations_total{')),
    ).toHaveLength(VIOLATION_DIRECTIVES.length * VIOLATION_SOURCES.length)
  })

  it('counts a Reporting API batch by directive and the class of its source', async () => {
    const before = await metrics()
    const answer = await post(app, 'application/reports+json', MIXED_BATCH)
    expect(answer.statusCode).toBe(204)
    expect(answer.body).toBe('')
    const after = await metrics()
    const added = (directive: string, source: string) =>
      (count(after, directive, source) ?? 0) - (count(before, directive, source) ?? 0)
    expect(added('require-trusted-types-for', 'self')).toBe(1)
    expect(added('script-src-elem', 'cdn')).toBe(1)
    expect(added('script-src-elem', 'extension')).toBe(1)
    expect(added('style-src-attr', 'inline')).toBe(1)
    expect(added('script-src', 'eval')).toBe(1)
    expect(added('img-src', 'other')).toBe(1)
    expect(added('other', 'other')).toBe(1)
    expect(
      after.split('\n').filter((line) => line.startsWith('csp_violations_total{')),
    ).toHaveLength(VIOLATION_DIRECTIVES.length * VIOLATION_SOURCES.length)
  })

  it('counts report-uri reports in either shape: the legacy one and WebKit’s', async () => {
    const before = count(await metrics(), 'script-src-elem', 'other') ?? 0
    const answer = await post(
      app,
      'application/csp-report',
      firefoxReport({
        'blocked-uri': 'https://evil.example/x.js',
        'violated-directive': 'script-src-elem',
        'effective-directive': 'script-src-elem',
      }),
    )
    expect(answer.statusCode).toBe(204)
    // WebKit posts one report of the Reporting API's shape as `application/csp-report`
    // (the media type's case and parameters do not matter).
    const webkit = await post(
      app,
      'Application/CSP-Report; charset=utf-8',
      chromiumReport({
        effectiveDirective: 'script-src-elem',
        blockedURL: 'https://evil.example/y.js',
      }),
    )
    expect(webkit.statusCode).toBe(204)
    expect(count(await metrics(), 'script-src-elem', 'other')).toBe(before + 2)
  })

  it('logs a class once a minute, with the route and never the page’s address or sample', async () => {
    vi.useFakeTimers({ toFake: ['Date'], now: Date.parse('2026-12-01T10:00:00Z') })
    lines.length = 0
    const own = MIXED_BATCH[0]
    await post(app, 'application/reports+json', [own, own, own])
    expect(reportLines()).toEqual([
      expect.objectContaining({
        directive: 'require-trusted-types-for',
        source: 'self',
        disposition: 'enforce',
        page: '/contact',
        locale: 'de',
      }),
    ])
    vi.setSystemTime(Date.parse('2026-12-01T10:01:01Z'))
    await post(app, 'application/reports+json', [own])
    expect(reportLines()[1]).toMatchObject({ source: 'self', unloggedSince: 2 })
    const logged = lines.join('\n')
    for (const secret of [
      'utm_source',
      'Jan Kowalski',
      'innerHTML',
      'contact-Ab12',
      'Chrome/156',
    ]) {
      expect(logged).not.toContain(secret)
    }
  })

  it('refuses what is not a report with JSON, never a page, and counts nothing', async () => {
    const before = await cspLines()
    const cases: [string, unknown, number][] = [
      ['application/reports+json', '{"not":', 400],
      ['application/reports+json', { type: 'csp-violation' }, 400],
      ['application/reports+json', [chromiumReport({ effectiveDirective: 7 })], 400],
      ['application/csp-report', { 'csp-report': { 'blocked-uri': 'inline' } }, 400],
      ['application/csp-report', { report: {} }, 400],
      ['application/json', MIXED_BATCH, 415],
      ['text/html', '<p>hi</p>', 415],
      [
        'application/reports+json',
        [chromiumReport({ effectiveDirective: 'img-src', blockedURL: 'x'.repeat(9000) })],
        413,
      ],
    ]
    for (const [type, payload, status] of cases) {
      const answer = await post(app, type, payload, '192.0.2.20')
      expect(answer.statusCode, `${type} ${JSON.stringify(payload).slice(0, 60)}`).toBe(status)
      expect(String(answer.headers['content-type'])).toMatch(/^application\/json/)
      expect(JSON.parse(answer.body)).toHaveProperty('error')
    }
    expect(await cspLines()).toEqual(before)
  })

  it(`accepts ${CLIENT_ERROR_RATE_LIMIT.max} posts a minute from one address, then 429`, async () => {
    const report = [chromiumReport({ effectiveDirective: 'img-src', blockedURL: 'data:' })]
    for (let index = 0; index < CLIENT_ERROR_RATE_LIMIT.max; index += 1) {
      expect((await post(app, 'application/reports+json', report, '192.0.2.30')).statusCode).toBe(
        204,
      )
    }
    const limited = await post(app, 'application/reports+json', report, '192.0.2.30')
    expect(limited.statusCode).toBe(429)
    expect(String(limited.headers['content-type'])).toMatch(/^application\/json/)
    expect((await post(app, 'application/reports+json', report, '192.0.2.31')).statusCode).toBe(204)
  })
})
