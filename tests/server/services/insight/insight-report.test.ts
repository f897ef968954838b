import { spawnSync } from 'node:child_process'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import {
  HAS_PROMETHEUS,
  startPrometheus,
  WEEK_STEPS,
  type Series,
} from '#tests/helpers/prometheus.ts'

/**
 * `npm run report` (docs/insight.md#insight-which-pages-bring-leads) against a real Prometheus: 61
 * days of the app's counters written into its storage with promtool (`tsdb create-blocks-from
 * openmetrics`), then the command reads the last 7 and 30 days as the dashboard does and prints
 * them.
 */

if (!HAS_PROMETHEUS) {
  console.warn(
    'prometheus or promtool not installed (apt-get install prometheus): report test skipped',
  )
}

/** A whole minute in the past: the samples end exactly where the report's periods end. */
const END_S = Math.floor(Date.now() / 60_000) * 60 - 3600

const WEB = 'namespace="web",service="website"'
const SERIES: Series[] = [
  // Home page, English, from Google: twice as many views in the last week as before.
  {
    family: 'page_views',
    labels: `${WEB},page="home",locale="en",source="google"`,
    growth: (ago) => (ago < WEEK_STEPS ? 2 : 1),
  },
  // A service page in German from LinkedIn, with a restart in the last week.
  {
    family: 'page_views',
    labels: `${WEB},page="service-cloud-infrastructure",locale="de",source="linkedin"`,
    growth: () => 1,
    restartAt: 100,
  },
  // Another deployment in the same Prometheus, which the selector leaves out.
  {
    family: 'page_views',
    labels: 'namespace="staging",service="website",page="home",locale="en",source="none"',
    growth: () => 10,
  },
  {
    family: 'contact_leads',
    labels: `${WEB},form="contact",page="service-cloud-infrastructure",locale="de",interest="cloud"`,
    growth: () => 1 / 4,
  },
  {
    family: 'contact_leads',
    labels: `${WEB},form="home",page="home",locale="en",interest="modernization"`,
    growth: () => 1 / 8,
  },
  {
    family: 'contact_deliveries',
    labels: `${WEB},result="delivered"`,
    growth: () => 3 / 8,
  },
  { family: 'contact_rejected', labels: `${WEB},reason="honeypot"`, growth: () => 1.5 },
]

let prometheus: Awaited<ReturnType<typeof startPrometheus>> | undefined
let url: string

beforeAll(async () => {
  if (!HAS_PROMETHEUS) return
  prometheus = await startPrometheus(SERIES, END_S)
  url = prometheus.url
}, 120_000)

afterAll(() => {
  prometheus?.stop()
})

function report(...args: string[]) {
  return spawnSync(
    process.execPath,
    ['server/cli/insight-report.ts', '--until', new Date(END_S * 1000).toISOString(), ...args],
    { encoding: 'utf8', env: { ...process.env, PROMETHEUS_URL: url } },
  )
}

/** A report's lines, spaces squeezed, for lines like "home 4,032 4,032 0 0 …". */
function lines(text: string): string[] {
  return text.split('\n').map((line) => line.trim().replace(/\s+/g, ' '))
}

describe.skipIf(!HAS_PROMETHEUS)('npm run report', () => {
  it('prints the last 7 and 30 days of one deployment as the dashboard counts them', () => {
    const result = report('--selector', 'namespace="web", service="website"')
    expect(result.status, result.stderr).toBe(0)
    const [week, month] = result.stdout.split(/\n\n\n/)
    // 7 days: home 2 × 168 hours, the service page 168 across its restart; leads 42 + 21.
    expect(lines(week ?? '')).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Last 7 days, to /),
        'Views: 504 (+50% on the 7 days before)',
        'Leads: 63 (0% on the 7 days before)',
        'Leads per 100 views: 12.5',
        'Delivered: 63; spam dropped or refused: 252',
        'home 336 336 0 0 21 6.3',
        'service-cloud-infrastructure 168 0 168 0 42 25.0',
        'about 0 0 0 0 0 –',
        'en 336 21 6.3',
        'de 168 42 25.0',
        'google 336 67%',
        'linkedin 168 33%',
        'none 0 0%',
        'home 21',
        'contact 42',
        'cloud 42',
        'modernization 21',
      ]),
    )
    // 30 days: home 336 + 552; the 30 days before have 720 views per page.
    expect(lines(month ?? '')).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^Last 30 days, to /),
        'Views: 1,608 (+12% on the 30 days before)',
        'Leads: 270 (0% on the 30 days before)',
        'home 888 888 0 0 90 10.1',
      ]),
    )
  })

  it('without a selector counts every deployment the Prometheus holds', () => {
    const result = report('--days', '7')
    expect(result.status, result.stderr).toBe(0)
    expect(lines(result.stdout)).toContain('Views: 2,184 (+8% on the 7 days before)')
    expect(result.stdout).not.toContain('Last 30 days')
  })

  it.each([
    [['--selector', 'namespace="web"}) or vector(1'], /--selector must be label matchers/],
    [['--days', '0'], /--days must be whole days/],
    [['--until', 'last monday'], /--until must be an ISO time/],
    [['--prometheus', 'file:///etc/passwd'], /--prometheus must be an http\(s\) URL/],
  ])('refuses %j with a message and the usage', (args, message) => {
    const result = report(...args)
    expect(result.status).toBe(2)
    expect(result.stderr).toMatch(message)
    expect(result.stderr).toContain('Usage: npm run report')
  })

  it('says so when Prometheus cannot be reached', () => {
    const result = report('--prometheus', 'http://127.0.0.1:9')
    expect(result.status).toBe(1)
    expect(result.stderr).toContain('The figures could not be read')
  })
})
