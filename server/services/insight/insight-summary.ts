import { createHash } from 'node:crypto'
import escapeHtml from 'escape-html'
import { formatFigures, insightFigures, type Query } from './insight-report.ts'
import { htmlDocument } from '../contact/index.ts'

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
  return { week, until: new Date(monday), id: summaryId(week) }
}

/**
 * The outbox id of a week's summary: the same on every replica and after every restart (a
 * UUID's shape made from a hash of the week), so the Redis queue never holds it twice.
 */
function summaryId(week: string): string {
  const hex = createHash('sha256').update(`insight-summary:${week}`).digest('hex')
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20, 32)}`
}

const dayFormat = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' })

/**
 * The summary's mail: subject, text and the same as an HTML document (English: the report is
 * for the team, like `npm run report`'s). The tables are monospaced text in both, so the HTML
 * part says exactly what the text part says (a filter compares the two).
 */
export async function summaryMail(
  query: Query,
  { until, selector, siteUrl }: { until: Date; selector: string; siteUrl: string },
): Promise<{ subject: string; text: string; html: string }> {
  const periods = []
  for (const days of [7, 30]) {
    periods.push(formatFigures(await insightFigures(query, { days, until, selector })))
  }
  const lastDay = new Date(until.getTime() - DAY_MS)
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
    text: [...intro, '', periods.join('\n\n\n'), '', footer].join('\n'),
    html: htmlDocument({
      lang: 'en',
      title: subject,
      body: [
        `<p>${escapeHtml(intro.join(' '))}</p>`,
        ...periods.map((period) => `<pre>${escapeHtml(period)}</pre>`),
        `<p>${escapeHtml(footer)}</p>`,
      ].join('\n'),
    }),
  }
}
