import type { FastifyReply, FastifyRequest } from 'fastify'
import fp from 'fastify-plugin'
import { Counter } from 'prom-client'
import {
  allLeads,
  allPageViews,
  type Lead,
  leadOf,
  pageView,
  type PageView,
} from '../services/insight/index.ts'

declare module 'fastify' {
  interface FastifyInstance {
    insight: {
      /** Counts a page request as a view if it is one (`pageView`): the page route's hook. */
      countView: (request: FastifyRequest, reply: FastifyReply) => void
      /** Counts an accepted contact message as a lead of its form and page. */
      countLead: (post: Parameters<typeof leadOf>[0]) => void
    }
  }
}

/**
 * Which pages bring leads (docs/insight.md#insight-which-pages-bring-leads): page views and leads
 * as Prometheus counters, labelled only with values of the site's tables, so the number of series
 * is fixed by them. Every series exists from the start at 0: a rate over a week is defined before
 * the first view, and the first view or lead after a restart is not lost to `increase()`.
 */
export const insightPlugin = fp(
  async (app) => {
    const ownHost = new URL(app.config.APP_BASE_URL).hostname
    const views = new Counter({
      name: 'page_views_total',
      help: 'Views of pages loaded as documents by people (no bots, no prefetches), by page, locale and source of the visit',
      labelNames: ['page', 'locale', 'source'] as const,
      registers: [app.metrics],
    })
    const leads = new Counter({
      name: 'contact_leads_total',
      help: 'Accepted contact messages by form, the page they count under, locale and service interest',
      labelNames: ['form', 'page', 'locale', 'interest'] as const,
      registers: [app.metrics],
    })

    // Each series' child made once and found by a string key: prom-client would otherwise
    // hash the label object on every counted request.
    type Child = ReturnType<typeof views.labels>
    const viewKey = ({ page, locale, source }: PageView) => `${page} ${locale} ${source}`
    const viewSeries = new Map<string, Child>()
    for (const labels of allPageViews()) {
      const child = views.labels(labels)
      child.inc(0)
      viewSeries.set(viewKey(labels), child)
    }
    const leadKey = ({ form, page, locale, interest }: Lead) =>
      `${form} ${page} ${locale} ${interest}`
    const leadSeries = new Map<string, Child>()
    for (const labels of allLeads()) {
      const child = leads.labels(labels)
      child.inc(0)
      leadSeries.set(leadKey(labels), child)
    }

    app.decorate('insight', {
      countView(request: FastifyRequest, reply: FastifyReply) {
        const view = pageView(
          {
            method: request.method,
            url: request.url,
            status: reply.statusCode,
            headers: request.headers,
          },
          ownHost,
        )
        if (view) viewSeries.get(viewKey(view))?.inc()
      },
      countLead(post: Parameters<typeof leadOf>[0]) {
        const lead = leadOf(post)
        // An interest a form does not offer (posted by hand) is still one of the table's.
        const child = leadSeries.get(leadKey(lead)) ?? leads.labels(lead)
        child.inc()
      },
    })
  },
  { name: 'insight' },
)
