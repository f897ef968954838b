import { spawnSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parser } from '@prometheus-io/lezer-promql'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { parseAllDocuments, stringify } from 'yaml'
import type { FastifyInstance } from 'fastify'
import { DROP_REASONS, REJECTION_REASONS, REJECTIONS } from '#server/services/spam/spam-signals.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import { helm, helmBinary } from '#tests/helpers/helm.ts'

/**
 * The chart's alerts and dashboard, checked with Prometheus's own tools: `promtool check rules`
 * and `promtool test rules` on the rules exactly as the chart renders them, and Prometheus's
 * PromQL parser for JavaScript on every expression, whose metric names the app must expose.
 */

const ROOT = join(import.meta.dirname, '..', '..')
const CHART = join(ROOT, 'helm')
const NAMESPACE = 'web'
const SERVICE = 'site-modernization-partners-web'
const POD = `${SERVICE}-7d9f8-x2x4q`

const binary = helmBinary()
const promtool = spawnSync('promtool', ['--version']).status === 0 ? 'promtool' : null
if (!promtool)
  console.warn('Skipping the alert rule tests: no promtool (apt-get install prometheus)')

type Rule = {
  alert: string
  expr: string
  for?: string
  labels: Record<string, string>
  annotations: Record<string, string>
}
type Manifest = {
  kind: string
  metadata: { name: string }
  spec?: unknown
  data?: Record<string, string>
}

function render(values: string[]): Manifest[] {
  const result = helm(binary ?? 'helm', [
    'template',
    'site',
    CHART,
    '--namespace',
    NAMESPACE,
    ...values,
  ])
  if (result.status !== 0) throw new Error(result.stderr)
  return parseAllDocuments(result.stdout)
    .map((document) => document.toJS() as Manifest | null)
    .filter((manifest): manifest is Manifest => manifest !== null)
}

type Series = { series: string; values: string }
/** The app's series carry these labels, as the ServiceMonitor scrapes them. */
const app = (name: string, labels = '') =>
  `${name}{namespace="${NAMESPACE}", service="${SERVICE}", pod="${POD}"${labels ? `, ${labels}` : ''}}`
/** kube-state-metrics' series of a pod's container. */
const kube = (name: string, pod = POD, container = 'web') =>
  `${name}{namespace="${NAMESPACE}", pod="${pod}", container="${container}"}`
const OF_SERVICE = { namespace: NAMESPACE, service: SERVICE }

/**
 * For every alert of the chart: series of the failure it is for (it must fire at `at`, with
 * these labels) and healthy series (it must stay silent). One place: an alert added to the
 * chart without a case here fails the test.
 */
const CASES: Record<
  string,
  { failing: Series[]; at: string; labels: Record<string, string>; healthy: Series[][] }
> = {
  WebsiteContactDeliveryNotConfigured: {
    failing: [
      { series: app('contact_delivery_configured'), values: '0x40' },
      { series: app('contact_oldest_undelivered_age_seconds'), values: '0+60x40' },
    ],
    at: '20m',
    labels: OF_SERVICE,
    healthy: [
      [
        { series: app('contact_delivery_configured'), values: '1x40' },
        { series: app('contact_oldest_undelivered_age_seconds'), values: '0+60x3 0x36' },
      ],
      // No SMTP, but nothing waits either (a site that has had no message yet).
      [
        { series: app('contact_delivery_configured'), values: '0x40' },
        { series: app('contact_oldest_undelivered_age_seconds'), values: '0x40' },
      ],
    ],
  },
  WebsiteContactMessageWaiting: {
    failing: [{ series: app('contact_oldest_undelivered_age_seconds'), values: '0+60x60' }],
    at: '40m',
    labels: OF_SERVICE,
    // A message that waited 20 minutes, then went out.
    healthy: [[{ series: app('contact_oldest_undelivered_age_seconds'), values: '0+60x20 0x40' }]],
  },
  WebsiteContactDeliveryFailing: {
    failing: [
      { series: app('contact_deliveries_total', 'result="failed"'), values: '0+1x60' },
      { series: app('contact_deliveries_total', 'result="delivered"'), values: '3x60' },
    ],
    at: '30m',
    labels: OF_SERVICE,
    // One message keeps failing while others go through: the relay works.
    healthy: [
      [
        { series: app('contact_deliveries_total', 'result="failed"'), values: '0+1x60' },
        { series: app('contact_deliveries_total', 'result="delivered"'), values: '0+1x60' },
      ],
    ],
  },
  WebsiteQueueDiskNotRewritten: {
    // Hourly rewrites refused by a managed Redis from the start.
    failing: [
      { series: app('contact_queue_disk_rewrites_total', 'result="failed"'), values: '0+1x100' },
      { series: app('contact_queue_disk_rewrites_total', 'result="rewritten"'), values: '0x100' },
    ],
    at: '80m',
    labels: OF_SERVICE,
    // One failure (a rewrite still running at shutdown, a Redis restart) among successes.
    healthy: [
      [
        {
          series: app('contact_queue_disk_rewrites_total', 'result="failed"'),
          values: '0x40 1x60',
        },
        {
          series: app('contact_queue_disk_rewrites_total', 'result="rewritten"'),
          values: '0+1x100',
        },
      ],
    ],
  },
  WebsiteContactSubmissionsRefused: {
    failing: [
      { series: app('contact_submissions_total', 'outcome="accepted"'), values: '0+1x40' },
      { series: app('contact_submissions_total', 'outcome="error"'), values: '0x10 1x30' },
    ],
    at: '15m',
    labels: OF_SERVICE,
    healthy: [
      [
        { series: app('contact_submissions_total', 'outcome="accepted"'), values: '0+1x40' },
        { series: app('contact_submissions_total', 'outcome="invalid"'), values: '0+2x40' },
      ],
    ],
  },
  WebsiteContactStoreUnwritable: {
    failing: [{ series: app('contact_store_writable'), values: '1x5 0x20' }],
    at: '15m',
    labels: OF_SERVICE,
    healthy: [
      [{ series: app('contact_store_writable'), values: '1x25' }],
      // A moment without room (a probe during a rewrite of the disk) is no alert.
      [{ series: app('contact_store_writable'), values: '1x5 0x2 1x18' }],
    ],
  },
  // Six hours of ordinary spam, then a wave: twenty a minute.
  WebsiteSpamWave: {
    failing: [
      { series: app('contact_rejected_total', 'reason="tooFast"'), values: '0+1x360 360+20x60' },
      { series: app('contact_rejected_total', 'reason="foreign"'), values: '0x420' },
    ],
    at: '415m',
    labels: OF_SERVICE,
    healthy: [
      // As much spam as every day: dropped, nothing unusual.
      [{ series: app('contact_rejected_total', 'reason="honeypot"'), values: '0+20x420' }],
      // A little, or people: other sites' posts and expired forms are not spam.
      [
        { series: app('contact_rejected_total', 'reason="tokenMissing"'), values: '0+1x420' },
        { series: app('contact_rejected_total', 'reason="foreign"'), values: '0x360 0+20x60' },
        {
          series: app('contact_rejected_total', 'reason="tokenExpired"'),
          values: '0x360 0+20x60',
        },
        { series: app('contact_rejected_total', 'reason="keyUnknown"'), values: '0x360 0+20x60' },
      ],
    ],
  },
  // Two hours of ordinary bots in the quarantine, then a rollout: people's forms fail.
  WebsiteContactQuarantineUnlikeSpam: {
    failing: [
      { series: app('contact_quarantined_total', 'reason="honeypot"'), values: '0+0.1x180' },
      {
        series: app('contact_quarantined_total', 'reason="proofInvalid"'),
        values: '0x120 0+0.2x60',
      },
      { series: app('contact_quarantine_person_sources'), values: '0x120 9x60' },
    ],
    at: '170m',
    labels: OF_SERVICE,
    healthy: [
      // One client forging people's reasons (say, tokens it changed itself): one source.
      [
        { series: app('contact_quarantined_total', 'reason="honeypot"'), values: '0+0.1x180' },
        {
          series: app('contact_quarantined_total', 'reason="proofInvalid"'),
          values: '0x120 0+0.2x60',
        },
        { series: app('contact_quarantine_person_sources'), values: '0x120 1x60' },
      ],
      // A spam wave: bots' reasons far outnumber the rest.
      [
        { series: app('contact_quarantined_total', 'reason="honeypot"'), values: '0+5x180' },
        { series: app('contact_quarantined_total', 'reason="tooFast"'), values: '0+0.5x180' },
      ],
      // A person now and then: an autofill sent too fast.
      [{ series: app('contact_quarantined_total', 'reason="tooFast"'), values: '0+0.02x180' }],
    ],
  },
  // The quarantine's store gone: every try of the day's digest fails, every 10 minutes.
  WebsiteContactQuarantineDigestFailing: {
    failing: [
      {
        series: app('contact_quarantine_digests_total', 'outcome="failed"'),
        values: '0x60 1+0.1x120',
      },
      { series: app('contact_quarantine_digests_total', 'outcome="queued"'), values: '0x180' },
    ],
    at: '150m',
    labels: OF_SERVICE,
    healthy: [
      // One try failed (Redis restarting), the next one queued it.
      [
        {
          series: app('contact_quarantine_digests_total', 'outcome="failed"'),
          values: '0x120 1x60',
        },
        {
          series: app('contact_quarantine_digests_total', 'outcome="queued"'),
          values: '0x125 1x55',
        },
      ],
    ],
  },
  // Three leads an hour for six hours, then one a minute.
  WebsiteContactLeadSurge: {
    failing: [
      {
        series: app('contact_submissions_total', 'outcome="accepted"'),
        values: '0+0.05x360 18+1x60',
      },
    ],
    at: '415m',
    labels: OF_SERVICE,
    healthy: [
      // Busy, as every day.
      [{ series: app('contact_submissions_total', 'outcome="accepted"'), values: '0+1x420' }],
      // Quiet.
      [{ series: app('contact_submissions_total', 'outcome="accepted"'), values: '0+0.1x420' }],
    ],
  },
  WebsiteHighErrorRate: {
    failing: [
      {
        series: app(
          'http_request_duration_seconds_count',
          'route="/*", method="GET", status_code="200"',
        ),
        values: '0+100x40',
      },
      {
        series: app(
          'http_request_duration_seconds_count',
          'route="/*", method="GET", status_code="500"',
        ),
        values: '0+5x40',
      },
    ],
    at: '20m',
    labels: OF_SERVICE,
    healthy: [
      [
        {
          series: app(
            'http_request_duration_seconds_count',
            'route="/*", method="GET", status_code="200"',
          ),
          values: '0+100x40',
        },
        {
          series: app(
            'http_request_duration_seconds_count',
            'route="/*", method="GET", status_code="500"',
          ),
          values: '0+0.5x40',
        },
      ],
    ],
  },
  WebsiteRenderErrors: {
    failing: [{ series: app('render_errors_total'), values: '0x10 2x30' }],
    at: '15m',
    labels: OF_SERVICE,
    healthy: [[{ series: app('render_errors_total'), values: '0x40' }]],
  },
  // A release whose own script writes into a Trusted Types sink: reports from every visitor.
  WebsiteCspViolationsFromSelf: {
    failing: [
      {
        series: app('csp_violations_total', 'directive="require-trusted-types-for", source="self"'),
        values: '0x10 0+3x30',
      },
      { series: app('csp_self_violation_sources'), values: '0x10 12x30' },
    ],
    at: '20m',
    labels: OF_SERVICE,
    healthy: [
      // One client posting forged reports of the site's own files: one source.
      [
        {
          series: app(
            'csp_violations_total',
            'directive="require-trusted-types-for", source="self"',
          ),
          values: '0x10 0+3x30',
        },
        { series: app('csp_self_violation_sources'), values: '0x10 1x30' },
      ],
      [
        // Extensions and injected code are refused every day; that is the policy working.
        {
          series: app('csp_violations_total', 'directive="script-src-elem", source="extension"'),
          values: '0+5x40',
        },
        {
          series: app(
            'csp_violations_total',
            'directive="require-trusted-types-for", source="other"',
          ),
          values: '0+2x40',
        },
        {
          series: app('csp_violations_total', 'directive="script-src", source="self"'),
          values: '0x40',
        },
      ],
    ],
  },
  WebsiteMetricsDown: {
    failing: [{ series: app('up', 'job="modernization-partners-web"'), values: '1x5 0x30' }],
    at: '20m',
    labels: { ...OF_SERVICE, pod: POD, job: 'modernization-partners-web' },
    healthy: [[{ series: app('up', 'job="modernization-partners-web"'), values: '1x40' }]],
  },
  WebsitePodNotReady: {
    failing: [{ series: kube('kube_pod_container_status_ready'), values: '1x5 0x30' }],
    at: '20m',
    labels: { namespace: NAMESPACE, pod: POD },
    healthy: [
      [
        { series: kube('kube_pod_container_status_ready'), values: '1x40' },
        // The chart's Redis is not the site's container.
        {
          series: kube('kube_pod_container_status_ready', `${SERVICE}-redis-0`, 'redis'),
          values: '0x40',
        },
      ],
    ],
  },
  WebsitePodRestarting: {
    failing: [{ series: kube('kube_pod_container_status_restarts_total'), values: '0+1x40' }],
    at: '35m',
    labels: { namespace: NAMESPACE, pod: POD, container: 'web' },
    // One restart (a node drained) is no alarm.
    healthy: [[{ series: kube('kube_pod_container_status_restarts_total'), values: '0x10 1x30' }]],
  },
}

let rules: Rule[] = []
/** The dashboard's panels; a row (a heading between panels) has no queries. */
let dashboard:
  | {
      time: { from: string }
      panels: { title: string; timeFrom?: string; targets?: { expr: string }[] }[]
    }
  | undefined
let work: string

beforeAll(() => {
  if (!binary) return
  const manifests = render(['-f', join(CHART, 'ci', 'alerts-values.yaml')])
  const rule = manifests.find((manifest) => manifest.kind === 'PrometheusRule')
  const groups = (rule?.spec as { groups: { name: string; rules: Rule[] }[] }).groups
  rules = groups.flatMap((group) => group.rules)
  work = mkdtempSync(join(tmpdir(), 'alerts-'))
  writeFileSync(join(work, 'rules.yaml'), stringify({ groups }))
  const configMap = manifests.find((manifest) => manifest.metadata.name.endsWith('-dashboard'))
  dashboard = JSON.parse(Object.values(configMap?.data ?? {})[0] ?? 'null') as typeof dashboard
})

afterAll(() => {
  if (work) rmSync(work, { recursive: true, force: true })
})

describe.skipIf(!binary)('the alerts as the chart renders them', () => {
  it('every alert has a severity, a summary, a description and a runbook section', () => {
    const readme = readFileSync(join(CHART, 'README.md'), 'utf8')
    expect(rules.map((rule) => rule.alert).sort()).toEqual(Object.keys(CASES).sort())
    for (const rule of rules) {
      expect(['critical', 'warning'], rule.alert).toContain(rule.labels.severity)
      expect(rule.annotations.summary, rule.alert).toBeTruthy()
      expect(rule.annotations.description, rule.alert).toBeTruthy()
      expect(rule.annotations.runbook_url).toBe(
        `https://git.modernwerk.example/web/-/blob/main/helm/README.md#${rule.alert.toLowerCase()}`,
      )
      expect(readme, rule.alert).toContain(`\n### ${rule.alert}\n`)
    }
  })

  it('WebsiteContactQuarantineUnlikeSpam takes people’s reasons from the spam defence’s table', () => {
    const rule = rules.find(({ alert }) => alert === 'WebsiteContactQuarantineUnlikeSpam')
    const mayBePerson = DROP_REASONS.filter((reason) => REJECTIONS[reason].mayBePerson)
    const patterns = [...(rule?.expr ?? '').matchAll(/reason[=!]~"([^"]+)"/g)].map(
      ([, pattern]) => pattern ?? '',
    )
    expect(patterns).toHaveLength(3)
    for (const pattern of patterns) expect(pattern.split('|').sort()).toEqual(mayBePerson.sort())
  })

  it('WebsiteSpamWave leaves out what the spam defence does not drop (its table)', () => {
    const rule = rules.find(({ alert }) => alert === 'WebsiteSpamWave')
    const notDropped = REJECTION_REASONS.filter((reason) => REJECTIONS[reason].answer !== 'dropped')
    for (const [, pattern] of (rule?.expr ?? '').matchAll(/reason!~"([^"]+)"/g)) {
      expect(pattern?.split('|').sort()).toEqual(notDropped.sort())
    }
  })

  it.skipIf(!promtool)('pass promtool check rules', () => {
    const result = spawnSync('promtool', ['check', 'rules', join(work, 'rules.yaml')], {
      encoding: 'utf8',
    })
    expect(result.stdout + result.stderr).toContain(`SUCCESS: ${rules.length} rules found`)
    expect(result.status).toBe(0)
  })

  it.skipIf(!promtool)(
    'fire on each failure and stay silent on healthy series (promtool test rules)',
    () => {
      const tests = rules.flatMap((rule) => {
        const test = CASES[rule.alert]
        if (!test) throw new Error(`no test case for ${rule.alert}`)
        const expected = {
          exp_labels: { alertname: rule.alert, ...rule.labels, ...test.labels },
          exp_annotations: rule.annotations,
        }
        const evaluate = (series: Series[], alerts: unknown[]) => ({
          interval: '1m',
          input_series: series,
          alert_rule_test: [{ eval_time: test.at, alertname: rule.alert, exp_alerts: alerts }],
        })
        return [
          evaluate(test.failing, [expected]),
          ...test.healthy.map((series) => evaluate(series, [])),
        ]
      })
      const file = join(work, 'rules.test.yaml')
      writeFileSync(
        file,
        stringify({ rule_files: ['rules.yaml'], evaluation_interval: '1m', tests }),
      )
      const result = spawnSync('promtool', ['test', 'rules', file], { encoding: 'utf8' })
      expect(result.stdout + result.stderr).toContain('SUCCESS')
      expect(result.status, result.stdout + result.stderr).toBe(0)
    },
    // promtool evaluates every rule each minute up to seven hours for the spam and lead
    // alerts: seconds on an idle machine, more on a busy one.
    60_000,
  )
})

/** The metric names a PromQL expression reads, parsed by Prometheus's own grammar. */
function metricNames(expr: string): string[] {
  // Grafana fills its variables in before the query reaches Prometheus.
  const query = expr
    .replaceAll('$__rate_interval', '5m')
    .replaceAll('$__range', '7d')
    .replaceAll(/\$(\w+)/g, 'x')
  const tree = parser.parse(query)
  const names: string[] = []
  const errors: number[] = []
  tree.iterate({
    enter(node) {
      if (node.type.isError) errors.push(node.from)
      if (
        node.name === 'MetricName' ||
        (node.name === 'Identifier' && node.node.parent?.name === 'VectorSelector')
      ) {
        names.push(query.slice(node.from, node.to))
      }
    },
  })
  if (errors.length) throw new Error(`PromQL does not parse: ${expr}`)
  return names
}

type Matcher = { label: string; op: string; value: string }
/** The series selectors of a PromQL expression: metric name and label matchers. */
function selectors(expr: string): { name: string; matchers: Matcher[] }[] {
  const query = expr
    .replaceAll('$__rate_interval', '5m')
    .replaceAll('$__range', '7d')
    .replaceAll(/\$(\w+)/g, 'x')
  const found: { name: string; matchers: Matcher[] }[] = []
  const text = (node: { from: number; to: number }) => query.slice(node.from, node.to)
  parser.parse(query).iterate({
    enter(node) {
      if (node.name !== 'VectorSelector') return
      const name = node.node.getChild('Identifier') ?? node.node.getChild('MetricName')
      const matchers: Matcher[] = []
      for (const matcher of node.node
        .getChild('LabelMatchers')
        ?.getChildren('UnquotedLabelMatcher') ?? []) {
        const label = matcher.getChild('LabelName')
        const op = matcher.getChild('MatchOp')
        const value = matcher.getChild('StringLiteral')
        if (label && op && value) {
          matchers.push({
            label: text(label),
            op: text(op),
            value: JSON.parse(text(value)) as string,
          })
        }
      }
      if (name) found.push({ name: text(name), matchers })
    },
  })
  return found
}

/** Whether a sample's labels meet a matcher, as Prometheus decides (regexes fully anchored). */
function meets(labels: Record<string, string>, { label, op, value }: Matcher): boolean {
  const actual = labels[label] ?? ''
  const pattern = new RegExp(`^(?:${value})$`)
  if (op === '=') return actual === value
  if (op === '!=') return actual !== value
  if (op === '=~') return pattern.test(actual)
  return !pattern.test(actual)
}

describe.skipIf(!binary)('the dashboard shows statistics as the privacy policy says', () => {
  // privacy:sections.hosting.paragraphs.4: totals per page, source and language "over days and
  // weeks". A table over a picked range of minutes could name the page of one inquiry.
  it('opens on the last 7 days, and each table of views or leads covers 7 days whatever is picked', () => {
    expect(dashboard?.time.from).toBe('now-7d')
    const ranged = (dashboard?.panels ?? []).filter((panel) =>
      (panel.targets ?? []).some(
        ({ expr }) =>
          expr.includes('$__range') && /page_views_total|contact_leads_total/.test(expr),
      ),
    )
    expect(ranged.map((panel) => panel.title)).toContain('Leads per page, form and interest')
    for (const panel of ranged) expect(panel.timeFrom, panel.title).toBe('7d')
  })
})

describe.skipIf(!binary)('the dashboard and the rules read only metrics the app exposes', () => {
  let site: FastifyInstance | undefined
  afterAll(async () => {
    await site?.close()
  })

  it('every expression parses, names a metric of /metrics (or of Kubernetes), and finds the counter series it selects at 0 from the start', async () => {
    site = await buildTestApp({})
    const exposition = (await site.inject({ method: 'GET', url: '/metrics' })).body
    const exposed = new Set(
      [...exposition.matchAll(/^# TYPE (\w+) (\w+)$/gm)].flatMap(([, name, type]) =>
        type === 'histogram' ? [`${name}_bucket`, `${name}_count`, `${name}_sum`] : [name],
      ),
    )
    const fromKubernetes = (name: string) => name === 'up' || name.startsWith('kube_')

    const panels = dashboard?.panels ?? []
    const dashboardNames = panels.flatMap((panel) =>
      (panel.targets ?? []).flatMap(({ expr }) => metricNames(expr)),
    )
    const ruleNames = rules.flatMap((rule) => metricNames(rule.expr))
    for (const name of [...dashboardNames, ...ruleNames]) {
      expect(exposed.has(name) || fromKubernetes(name), name).toBe(true)
    }
    // Every counter series a query selects is there at 0 from the start, so a panel shows 0
    // rather than "no data" and increase() sees the first event. The request histogram is
    // left out: its labels (route, method, status) are open-ended and appear with a request.
    const samples = [...exposition.matchAll(/^(\w+)(?:\{(.*)\})? \S+$/gm)].map(
      ([, name, labels]) => ({
        name,
        labels: Object.fromEntries(
          [...(labels ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)].map(([, label, value]) => [
            label,
            value,
          ]),
        ) as Record<string, string>,
      }),
    )
    const ownLabels = new Set(['namespace', 'service', 'pod', 'container'])
    const counters = new Set(
      [...exposition.matchAll(/^# TYPE (\w+) counter$/gm)].map(([, name]) => name),
    )
    const queries = [
      ...rules.map((rule) => rule.expr),
      ...panels.flatMap((panel) => (panel.targets ?? []).map(({ expr }) => expr)),
    ]
    const missing = queries
      .flatMap(selectors)
      .filter(({ name }) => counters.has(name))
      .map(({ name, matchers }) => ({
        name,
        matchers: matchers.filter(({ label }) => !ownLabels.has(label)),
      }))
      .filter(
        ({ name, matchers }) =>
          !samples.some(
            (sample) =>
              sample.name === name && matchers.every((matcher) => meets(sample.labels, matcher)),
          ),
      )
      .map(
        ({ name, matchers }) =>
          `${name}{${matchers.map((m) => m.label + m.op + JSON.stringify(m.value)).join(', ')}}`,
      )
    expect([...new Set(missing)], 'selected series absent on a fresh start').toEqual([])
    // What on-call looks at first, each on the dashboard.
    expect(new Set(dashboardNames)).toEqual(
      new Set([
        'http_request_duration_seconds_count',
        'http_request_duration_seconds_bucket',
        'contact_submissions_total',
        'contact_rejected_total',
        'contact_quarantined_total',
        'contact_quarantine_entries',
        'contact_quarantine_removed_total',
        'contact_suspect_total',
        'contact_deliveries_total',
        'contact_messages_purged_total',
        'contact_oldest_undelivered_age_seconds',
        'contact_delivery_configured',
        'contact_queue_jobs',
        'render_errors_total',
        'http_overload_refusals_total',
        'app_build_info',
        'csp_violations_total',
        // What the partners read (docs/insight.md#insight-which-pages-bring-leads).
        'page_views_total',
        'contact_leads_total',
      ]),
    )
    // A misspelt metric is caught: the parser reads names, not just syntax.
    expect(metricNames('sum(rate(contact_deliveries_totl[5m]))')).toEqual([
      'contact_deliveries_totl',
    ])
    expect(() => metricNames('sum(rate(contact_deliveries_total[5m])')).toThrow(/does not parse/)
  })

  it('is off by default: no rules, no dashboard', () => {
    const kinds = render([]).map((manifest) => `${manifest.kind}/${manifest.metadata.name}`)
    expect(kinds.filter((kind) => kind.startsWith('PrometheusRule/'))).toEqual([])
    expect(kinds.filter((kind) => kind.endsWith('-dashboard'))).toEqual([])
  })

  it('refuses alerts without a runbook URL', () => {
    const result = helm(binary ?? 'helm', [
      'template',
      'site',
      CHART,
      '--set',
      'metrics.prometheusRule.enabled=true',
    ])
    expect(result.status).not.toBe(0)
    expect(result.stderr).toContain('runbookBaseUrl')
  })
})
