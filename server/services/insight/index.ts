/**
 * Insight: which pages bring leads, told without knowing anything about a visitor. Page views
 * and leads are counted as labels from the site's own tables (`insight.ts`: page, locale,
 * form, service and the source of the visit, `traffic-sources.ts`), never an address, a user
 * agent or an identifier; Prometheus keeps the counters. The figures are read back from
 * Prometheus (`insight-report.ts`, scoped to one deployment by `label-selector.ts`) for
 * `npm run report` and for the weekly summary e-mail (`insight-summary.ts`). Code outside this
 * folder imports it only from here.
 */

export { allLeads, allPageViews, leadOf, pageView, type Lead, type PageView } from './insight.ts'
export { formatFigures, insightFigures, prometheusQuery } from './insight-report.ts'
export { dueSummary, INSIGHT_SUMMARY_KIND, summaryData, summaryMailOf } from './insight-summary.ts'
export { SELECTOR } from './label-selector.ts'
