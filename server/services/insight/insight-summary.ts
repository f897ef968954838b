import escapeHtml from 'escape-html'
import { z } from 'zod'
import { formatFigures, insightFigures, type Query } from './insight-report.ts'
import { htmlDocument, siteMailId } from '../contact/index.ts'

/**
 * The weekly insight summary (docs/insight.md#insight-which-pages-bring-leads): on Mondays from
 * 06:00 UTC, the figures of the 7 and 30 days up to Monday 00:00 UTC, as the mail `npm run report`
 * would print them.
 */

/** When in the week the summary is due: Monday (UTC), from this hour on. */
const DUE_HOUR_UTC = 6
const DAY_MS = 86_400_000

/** The summary due at `now`: the week it covers (to its Monday, 00:00 UTC) and its id. */
export function dueSummary(now: Date): { week: string; until: Date; id: string } {
  const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate())
  // Days since Monday: Sunday is 6.
  let monday = midnight - ((now.getUTCDay() + 6) % 7) * DAY_MS
  if (now.getTime() < monday + DUE_HOUR_UTC * 3_600_000) monday -= 7 * DAY_MS
  const week = new Date(monday).toISOString().slice(0, 10)
  return { week, until: new Date(monday), id: siteMailId(`insight-summary:${week}`) }
}

const dayFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' })

/** The `kind` of the site mail that carries a week's summary (`SiteMail`). */
export const INSIGHT_SUMMARY_KIND = 'insight-summary'

const Count = z.number().int().min(0).max(Number.MAX_SAFE_INTEGER)
const Label = z.string().max(200)
const Rows = <T extends z.ZodRawShape>(shape: T) => z.array(z.object(shape)).max(10_000)

/** A period's figures as the queue stores them (`until` as an ISO time). */
const FiguresSchema = z.object({
  days: z.number().int().min(1).max(366),
  until: z.iso.datetime().transform((time) => new Date(time)),
  views: Count,
  leads: Count,
  delivered: Count,
  spam: Count,
  before: z.object({ views: Count, leads: Count }),
  pages: Rows({ page: Label, locale: Label, views: Count, leads: Count }),
  sources: Rows({ source: Label, views: Count }),
  forms: Rows({ form: Label, leads: Count }),
  interests: Rows({ interest: Label, leads: Count }),
})

/** What a queued summary carries: the figures, never the mail (written when it is sent). */
const SummaryDataSchema = z.object({
  until: z.iso.datetime(),
  siteUrl: z.url().max(200),
  periods: z.array(FiguresSchema).min(1).max(4),
})

/**
 * The data of the summary due for the week to `until`: the figures of the 7 and 30 days
 * before, read from Prometheus now. Queued as it is; `summaryMailOf` writes the mail from it.
 */
export async function summaryData(
  query: Query,
  { until, selector, siteUrl }: { until: Date; selector: string; siteUrl: string },
): Promise<z.input<typeof SummaryDataSchema>> {
  const periods = []
  for (const days of [7, 30]) {
    const figures = await insightFigures(query, { days, until, selector })
    periods.push({ ...figures, until: figures.until.toISOString() })
  }
  return { until: until.toISOString(), siteUrl, periods }
}

/**
 * The summary's mail, written from the data a queued summary carries (read again first: a
 * queue is not trusted to hold only what was put there): subject, text and the same as an
 * HTML document (English: the report is for the team, like `npm run report`'s). The tables
 * are monospaced text in both, so the HTML part says exactly what the text part says (a
 * filter compares the two). Throws when the data does not read as a summary's.
 */
export function summaryMailOf(value: unknown): { subject: string; text: string; html: string } {
  const { until, siteUrl, periods } = SummaryDataSchema.parse(value)
  const tables = periods.map((figures) => formatFigures(figures))
  const lastDay = new Date(Date.parse(until) - DAY_MS)
  const subject = `Website insight: the week to ${dayFormat.format(lastDay)}`
  const intro = [
    `Views and leads of ${siteUrl}, counted by the site's server (docs/insight.md): pages`,
    'loaded as documents by people (entries and reloads; navigations inside the site are not',
    'seen), leads per page, form and interest. Only totals; nothing about a visitor.',
  ]
  const footer =
    'Sent every Monday because INSIGHT_SUMMARY_PROMETHEUS_URL is set; unset it to stop.'
  return {
    subject,
    text: [...intro, '', tables.join('\n\n\n'), '', footer].join('\n'),
    html: htmlDocument({
      lang: 'en',
      title: subject,
      body: [
        `<p>${escapeHtml(intro.join(' '))}</p>`,
        ...tables.map((table) => `<pre>${escapeHtml(table)}</pre>`),
        `<p>${escapeHtml(footer)}</p>`,
      ].join('\n'),
    }),
  }
}
