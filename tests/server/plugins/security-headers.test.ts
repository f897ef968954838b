import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance, InjectOptions } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { loadScriptIntegrity } from '#server/render/integrity.ts'
import { CSP_REPORT_PATH } from '#server/routes/csp-reports.ts'
import { WORKER_FILE_PREFIX } from '#shared/subresources.ts'
import { TRUSTED_TYPES_POLICIES } from '#shared/trusted-types.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import { whileOverloaded } from '#tests/helpers/overload.ts'

/**
 * The headers every answer carried before @fastify/helmet wrote them: captured from the
 * server of 2026-11-25 (helmet run once at start, its headers set by a hook of our own) for
 * each configuration, and written out here, with Trusted Types added since (enforced but in
 * development, where they are reported only) and where violations are reported. Helmet's
 * answers must equal them exactly.
 */
const SAME_IN_EVERY_SETUP = {
  'cross-origin-opener-policy': 'same-origin',
  'cross-origin-resource-policy': 'same-origin',
  'origin-agent-cluster': '?1',
  'referrer-policy': 'strict-origin-when-cross-origin',
  'x-content-type-options': 'nosniff',
  'x-dns-prefetch-control': 'off',
  'x-download-options': 'noopen',
  'x-frame-options': 'DENY',
  'x-permitted-cross-domain-policies': 'none',
  'x-xss-protection': '0',
  'reporting-endpoints': `csp="${CSP_REPORT_PATH}"`,
  'permissions-policy':
    'accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=(), interest-cohort=()',
}
const TRUSTED_TYPES = `require-trusted-types-for 'script';trusted-types ${Object.values(TRUSTED_TYPES_POLICIES).join(' ')}`
const REPORTING = `report-to csp;report-uri ${CSP_REPORT_PATH}`
const HSTS = { 'strict-transport-security': 'max-age=31536000; includeSubDomains' }
const CDN = 'https://cdn.example.net'
/** The import map of this build's scripts at the CDN (server/render/integrity.ts). */
const IMPORT_MAP = await loadScriptIntegrity(
  join(import.meta.dirname, '..', '..', '..', 'dist'),
  `${CDN}/`,
)

const EXPECTED: Record<string, { env: Record<string, string>; headers: Record<string, string> }> = {
  production: {
    env: {},
    headers: {
      'content-security-policy': `default-src 'self';script-src 'self';style-src 'self';img-src 'self' data:;font-src 'self';connect-src 'self';worker-src 'self';manifest-src 'self';object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none';${TRUSTED_TYPES};${REPORTING}`,
      ...SAME_IN_EVERY_SETUP,
      ...HSTS,
    },
  },
  'CDN_URL set': {
    env: { CDN_URL: CDN },
    headers: {
      // A CDN serves scripts only, and the import map that checks them is allowed by its hash.
      'content-security-policy': `default-src 'self';script-src 'self' ${CDN} ${IMPORT_MAP.importMapSource};style-src 'self';img-src 'self' data:;font-src 'self';connect-src 'self';worker-src 'self';manifest-src 'self';object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none';${TRUSTED_TYPES};${REPORTING}`,
      ...SAME_IN_EVERY_SETUP,
      ...HSTS,
    },
  },
  'HSTS_MAX_AGE=0': {
    env: { HSTS_MAX_AGE: '0' },
    headers: {
      'content-security-policy': `default-src 'self';script-src 'self';style-src 'self';img-src 'self' data:;font-src 'self';connect-src 'self';worker-src 'self';manifest-src 'self';object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none';${TRUSTED_TYPES};${REPORTING}`,
      ...SAME_IN_EVERY_SETUP,
    },
  },
  development: {
    env: { NODE_ENV: 'development' },
    headers: {
      'content-security-policy': `default-src 'self';script-src 'self';style-src 'self' 'unsafe-inline';img-src 'self' data:;font-src 'self';connect-src 'self' ws:;worker-src 'self' blob:;manifest-src 'self';object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none';${REPORTING}`,
      'content-security-policy-report-only': TRUSTED_TYPES.replace(';', '; '),
      ...SAME_IN_EVERY_SETUP,
      ...HSTS,
    },
  },
}

/**
 * What the build's scripts (a worker's apart), stylesheets and fonts keep of them: the headers
 * browsers apply to a subresource (shared/subresources.ts).
 */
const ON_SUBRESOURCES = [
  'cross-origin-resource-policy',
  'x-content-type-options',
  'strict-transport-security',
]

function subresourceHeaders(headers: Record<string, string>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers).filter(([name]) => ON_SUBRESOURCES.includes(name)),
  )
}

/** Everything but the headers that describe the answer itself (type, length, caching, …). */
const SECURITY_HEADERS = new Set(
  Object.values(EXPECTED).flatMap(({ headers }) => Object.keys(headers)),
)

function securityHeaders(headers: Record<string, unknown>): Record<string, string> {
  return Object.fromEntries(
    Object.entries(headers)
      .filter(([name]) => SECURITY_HEADERS.has(name))
      .map(([name, value]) => [name, String(value)]),
  )
}

/** Answers of every kind, each with the status that shows it is the kind meant. */
async function answers(app: FastifyInstance, production: boolean) {
  const page = await app.inject({ url: '/de/services' })
  // The label, the request, the status that shows it is the kind meant, and whether the answer
  // is a subresource's.
  const requests: [string, InjectOptions, number, boolean?][] = [
    ['page', { url: '/de/services' }, 200],
    ['redirect', { url: '/', headers: { 'accept-language': 'de' } }, 302],
    ['404 page', { url: '/no-such-page' }, 404],
    ['JSON', { url: '/healthz' }, 200],
    ['JSON 404', { url: '/api/nope' }, 404],
    [
      'JSON 400',
      {
        method: 'POST',
        url: '/api/contact',
        payload: '{bad',
        headers: { 'content-type': 'application/json' },
      },
      400,
    ],
  ]
  if (production) {
    // With CDN_URL the page names the CDN's origin; this server serves the same path.
    const script = /src="[^"]*?(\/assets\/[\w-]+\.js)"/.exec(page.body)?.[1] ?? ''
    const asset = await app.inject({ url: script, headers: { 'accept-encoding': 'br' } })
    const built = readdirSync(
      join(import.meta.dirname, '..', '..', '..', 'dist', 'client', 'assets'),
    )
    const file = (pattern: RegExp) => `/assets/${built.find((name) => pattern.test(name)) ?? ''}`
    requests.push(
      [
        'page 304',
        { url: '/de/services', headers: { 'if-none-match': String(page.headers.etag) } },
        304,
      ],
      ['script', { url: script, headers: { 'accept-encoding': 'br' } }, 200, true],
      [
        'script 304',
        {
          url: script,
          headers: { 'accept-encoding': 'br', 'if-none-match': String(asset.headers.etag) },
        },
        304,
        true,
      ],
      ['stylesheet', { url: file(/\.css$/) }, 200, true],
      ['font', { url: file(/\.woff2$/) }, 200, true],
      // A worker runs under the policy of its own response, and an SVG can be opened as a page.
      ['worker', { url: file(new RegExp(`^${WORKER_FILE_PREFIX}.*\\.js$`)) }, 200],
      ['image', { url: file(/\.svg$/) }, 200],
      ['public file', { url: '/favicon.svg' }, 200],
      ['missing asset', { url: '/assets/gone-Abc123.js' }, 404],
    )
  }
  const results: {
    label: string
    status: number
    expected: number
    subresource: boolean
    headers: Record<string, string>
  }[] = []
  for (const [label, request, expected, subresource = false] of requests) {
    const response = await app.inject(request)
    results.push({
      label,
      status: response.statusCode,
      expected,
      subresource,
      headers: securityHeaders(response.headers),
    })
  }
  return results
}

describe.each(Object.entries(EXPECTED))('security headers, %s', (name, { env, headers }) => {
  let app: FastifyInstance
  beforeAll(async () => {
    app = await buildTestApp(env)
  }, 60_000)
  afterAll(() => app.close())

  it('equal the headers of before on pages, redirects, files, API answers and errors; scripts, stylesheets and fonts keep those that apply to them', async () => {
    for (const answer of await answers(app, name !== 'development')) {
      expect(answer.status, answer.label).toBe(answer.expected)
      expect(answer.headers, answer.label).toEqual(
        answer.subresource ? subresourceHeaders(headers) : headers,
      )
    }
  })
})

describe('security headers on answers made when things go wrong', () => {
  it('come with the 500 page when the renderer fails', async () => {
    const broken = await buildTestApp(
      {},
      {
        wrapRenderer: (renderer) => ({
          ...renderer,
          render: () => Promise.reject(new Error('renderer down')),
        }),
      },
    )
    try {
      const response = await broken.inject({ url: '/pl' })
      expect(response.statusCode).toBe(500)
      expect(securityHeaders(response.headers)).toEqual(EXPECTED.production?.headers)
    } finally {
      await broken.close()
    }
  })

  it('come with the 503 page and JSON while overloaded', async () => {
    const overloaded = await buildTestApp({ MAX_EVENT_LOOP_DELAY_MS: '100' })
    try {
      const page = await whileOverloaded(overloaded, { url: '/de/imprint' })
      expect(page.statusCode).toBe(503)
      expect(securityHeaders(page.headers)).toEqual(EXPECTED.production?.headers)
      const json = await whileOverloaded(overloaded, { method: 'POST', url: '/api/client-errors' })
      expect(json.statusCode).toBe(503)
      expect(securityHeaders(json.headers)).toEqual(EXPECTED.production?.headers)
    } finally {
      await overloaded.close()
    }
  }, 60_000)
})
