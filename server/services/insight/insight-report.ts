import { z } from 'zod'
import { CONTACT_FORM_IDS } from '#shared/contact-fields.ts'
import { LOCALES } from '#shared/locales.ts'
import { PAGES } from '#shared/pages.ts'
import { SELECTOR } from './label-selector.ts'
import { TRAFFIC_SOURCE_IDS } from './traffic-sources.ts'

/**
 * The figures of the dashboard's insight panels for someone without Grafana
 * (docs/insight.md#insight-which-pages-bring-leads): views, sources, leads and leads per 100 views
 * over a number of days, read from Prometheus's HTTP API, and the same figures as plain text.
 */

/** One sample of an instant query's vector: its labels and value. */
type Sample = { labels: Record<string, string>; value: number }

/** Runs an instant PromQL query and answers its vector. */
export type Query = (expr: string) => Promise<Sample[]>

const VectorAnswerSchema = z.object({
  status: z.literal('success'),
  data: z.object({
    resultType: z.literal('vector'),
    result: z.array(
      z.object({
        metric: z.record(z.string(), z.string()),
        value: z.tuple([z.number(), z.string()]),
      }),
    ),
  }),
})

/** Instant queries against the Prometheus at `base` (`/api/v1/query`), at `time`. */
export function prometheusQuery(base: URL, time: Date, timeoutMs = 30_000): Query {
  return async (expr) => {
    const url = new URL('api/v1/query', base.href.endsWith('/') ? base : `${base.href}/`)
    const body = new URLSearchParams({ query: expr, time: String(time.getTime() / 1000) })
    const response = await fetch(url, {
      method: 'POST',
      body,
      signal: AbortSignal.timeout(timeoutMs),
    })
    const text = await response.text()
    if (!response.ok) {
      throw new Error(`Prometheus answered ${response.status} to ${expr}: ${text.slice(0, 300)}`)
    }
    const answer = VectorAnswerSchema.parse(JSON.parse(text))
    return answer.data.result.map(({ metric, value }) => ({ labels: metric, value: +value[1] }))
  }
}

type PageRow = { page: string; locale: string; views: number; leads: number }

export type InsightFigures = {
  days: number
  /** The end of the period (the query's time). */
  until: Date
  views: number
  leads: number
  delivered: number
  /** Posts the spam defence dropped or refused. */
  spam: number
  /** The period of the same length before it. */
  before: { views: number; leads: number }
  /** Every page of the table in every locale, in the table's order. */
  pages: PageRow[]
  sources: { source: string; views: number }[]
  forms: { form: string; leads: number }[]
  interests: { interest: string; leads: number }[]
}

/** The views and leads of some rows of the page table, added up. */
function totals(rows: readonly PageRow[]): { views: number; leads: number } {
  return rows.reduce(
    (all, row) => ({ views: all.views + row.views, leads: all.leads + row.leads }),
    { views: 0, leads: 0 },
  )
}

/** A count from `increase()`: extrapolated by Prometheus, whole again here. */
const whole = (value: number) => (Number.isFinite(value) ? Math.round(value) : 0)

/** The figures of the `days` before `until`, for the series `selector` picks. */
export async function insightFigures(
  query: Query,
  { days, until, selector = '' }: { days: number; until: Date; selector?: string },
): Promise<InsightFigures> {
  if (!SELECTOR.test(selector)) throw new Error(`not a label selector: ${selector}`)
  const matchers = (...more: string[]) =>
    `{${[selector.trim(), ...more].filter(Boolean).join(', ')}}`
  const window = `[${days}d]`
  const increase = (metric: string, by: string, extra: string[] = [], offset = '') =>
    `sum${by ? ` by (${by})` : ''} (increase(${metric}${matchers(...extra)}${window}${offset}))`
  const total = async (expr: string) => whole((await query(expr))[0]?.value ?? 0)
  const grouped = async (expr: string, label: string) =>
    new Map((await query(expr)).map((sample) => [sample.labels[label] ?? '', whole(sample.value)]))
  const byPage = async (metric: string) =>
    new Map(
      (await query(increase(metric, 'page, locale'))).map((sample) => [
        `${sample.labels.page} ${sample.labels.locale}`,
        whole(sample.value),
      ]),
    )

  const [views, leads, sources, forms, interests, delivered, spam, viewsBefore, leadsBefore] =
    await Promise.all([
      byPage('page_views_total'),
      byPage('contact_leads_total'),
      grouped(increase('page_views_total', 'source'), 'source'),
      grouped(increase('contact_leads_total', 'form'), 'form'),
      grouped(increase('contact_leads_total', 'interest'), 'interest'),
      total(increase('contact_deliveries_total', '', ['result="delivered"'])),
      total(increase('contact_rejected_total', '')),
      total(increase('page_views_total', '', [], ` offset ${days}d`)),
      total(increase('contact_leads_total', '', [], ` offset ${days}d`)),
    ])
  const pages = PAGES.flatMap(({ id }) =>
    LOCALES.map((locale) => ({
      page: id,
      locale,
      views: views.get(`${id} ${locale}`) ?? 0,
      leads: leads.get(`${id} ${locale}`) ?? 0,
    })),
  )
  return {
    days,
    until,
    ...totals(pages),
    delivered,
    spam,
    before: { views: viewsBefore, leads: leadsBefore },
    pages,
    sources: TRAFFIC_SOURCE_IDS.map((source) => ({ source, views: sources.get(source) ?? 0 })),
    forms: CONTACT_FORM_IDS.map((form) => ({ form, leads: forms.get(form) ?? 0 })),
    interests: [...interests]
      .filter(([, count]) => count > 0)
      .map(([interest, count]) => ({ interest, leads: count })),
  }
}

const number = new Intl.NumberFormat('en-GB')
const rate = new Intl.NumberFormat('en-GB', { minimumFractionDigits: 1, maximumFractionDigits: 1 })
const signedPercent = new Intl.NumberFormat('en-GB', {
  style: 'percent',
  signDisplay: 'exceptZero',
})
const share = new Intl.NumberFormat('en-GB', { style: 'percent' })
const day = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: 'UTC',
})

/** Leads per 100 views, or a dash without views. */
function conversion(leads: number, views: number): string {
  return views > 0 ? rate.format((100 * leads) / views) : '–'
}

/** The change from the period before, e.g. "+12% on the 7 days before". */
function change(now: number, before: number, days: number): string {
  return before > 0
    ? `${signedPercent.format(now / before - 1)} on the ${days} days before`
    : `none in the ${days} days before`
}

/** Columns padded to their widest cell; the first left-aligned, the others right-aligned. */
function table(header: string[], rows: string[][]): string {
  const widths = header.map((_, column) =>
    Math.max(...[header, ...rows].map((row) => (row[column] ?? '').length)),
  )
  const line = (row: string[]) =>
    row
      .map((cell, column) =>
        column === 0 ? cell.padEnd(widths[column] ?? 0) : cell.padStart(widths[column] ?? 0),
      )
      .join('  ')
      .trimEnd()
  return [line(header), ...rows.map(line)].map((text) => `  ${text}`).join('\n')
}

/** A period's figures as plain text (English: the report is for the team, not visitors). */
export function formatFigures(figures: InsightFigures): string {
  const { days, until, views, leads, before } = figures
  const title = `Last ${days} days, to ${day.format(until)} UTC`
  const perPage = PAGES.map(({ id }) => {
    const rows = figures.pages.filter((row) => row.page === id)
    const sum = totals(rows)
    return [
      id,
      number.format(sum.views),
      ...LOCALES.map((locale) =>
        number.format(rows.find((row) => row.locale === locale)?.views ?? 0),
      ),
      number.format(sum.leads),
      conversion(sum.leads, sum.views),
    ]
  })
  const perLocale = LOCALES.map((locale) => {
    const sum = totals(figures.pages.filter((row) => row.locale === locale))
    return [
      locale,
      number.format(sum.views),
      number.format(sum.leads),
      conversion(sum.leads, sum.views),
    ]
  })
  return [
    title,
    '='.repeat(title.length),
    `Views: ${number.format(views)} (${change(views, before.views, days)})`,
    `Leads: ${number.format(leads)} (${change(leads, before.leads, days)})`,
    `Leads per 100 views: ${conversion(leads, views)}`,
    `Delivered: ${number.format(figures.delivered)}; spam dropped or refused: ${number.format(figures.spam)}`,
    '',
    'Pages',
    table(['page', 'views', ...LOCALES, 'leads', 'per 100 views'], perPage),
    '',
    'Languages',
    table(['locale', 'views', 'leads', 'per 100 views'], perLocale),
    '',
    'Sources of visits',
    table(
      ['source', 'views', 'share'],
      figures.sources.map(({ source, views: count }) => [
        source,
        number.format(count),
        views > 0 ? share.format(count / views) : '–',
      ]),
    ),
    '',
    'Leads by form and by service interest',
    table(
      ['form', 'leads'],
      figures.forms.map(({ form, leads: count }) => [form, number.format(count)]),
    ),
    table(
      ['interest', 'leads'],
      figures.interests.map(({ interest, leads: count }) => [interest, number.format(count)]),
    ),
  ].join('\n')
}
