import type { FastifyPluginAsync } from 'fastify'
import { Counter } from 'prom-client'
import { distinctSourcesGauge } from '../lib/distinct-sources.ts'
import {
  classify,
  type Origins,
  pageOfReport,
  VIOLATION_DIRECTIVES,
  VIOLATION_SOURCES,
  violationsOf,
} from '../services/reports/index.ts'
import { CLIENT_ERROR_RATE_LIMIT } from './client-errors.ts'

/** Where the policy's `report-to` and `report-uri` send reports (security-headers.ts). */
export const CSP_REPORT_PATH = '/api/csp-reports'

/** The two media types reports arrive as, and the shape each names (csp-reports.ts). */
const REPORT_TYPES = {
  /** The Reporting API's batches (`report-to`). */
  'application/reports+json': 'reports',
  /** `report-uri`'s single reports, in the legacy shape or (WebKit) the Reporting API's. */
  'application/csp-report': 'csp-report',
} as const

/** The media type of a `Content-Type` header, without parameters, in lower case. */
function mediaTypeOf(header: string | undefined): string {
  return (header ?? '').replace(/;.*/s, '').trim().toLowerCase()
}

/** The Reporting API's batches and single reports; anything larger is not one. */
const REPORT_BODY_LIMIT = 8 * 1024

/** A class of violation is logged at most once a minute; the counter counts every one. */
const LOG_INTERVAL_MS = 60_000

/** The window of `csp_self_violation_sources`, as long as the alert's (helm/README.md). */
export const SELF_SOURCES_WINDOW_MS = 15 * 60_000

/**
 * `POST /api/csp-reports`: the browser's reports of what the CSP refused
 * (docs/security.md#security-the-policy-enforced-and-reported), as `application/reports+json`
 * (Reporting API, `report-to`) or `application/csp-report` (`report-uri`). Counted as
 * `csp_violations_total{directive, source}` and, for the site's own files, the different clients
 * that reported them (`csp_self_violation_sources`); a class is logged at most once a minute with the
 * page's route, never a visitor's address or what was typed. Answered 204, or 400/413/415/429 as
 * JSON (the browser ignores the answer): never a page. Rate limited per IP like the error beacon
 * (`CLIENT_ERROR_RATE_LIMIT`, privacy policy).
 */
export const cspReportRoutes: FastifyPluginAsync<{ origins: Origins }> = async (
  app,
  { origins },
) => {
  const violations = new Counter({
    name: 'csp_violations_total',
    help: 'Violations of the Content Security Policy reported by browsers, by effective directive and the class of their source',
    labelNames: ['directive', 'source'] as const,
    registers: [app.metrics],
  })
  for (const directive of VIOLATION_DIRECTIVES) {
    for (const source of VIOLATION_SOURCES) violations.labels({ directive, source }).inc(0)
  }
  // Anyone can post a report: the alert on the site's own files asks how many different
  // clients reported one, so one client's forged reports cannot fire it.
  const selfSources = distinctSourcesGauge(app.metrics, {
    name: 'csp_self_violation_sources',
    help: 'Different client addresses that reported a violation of source "self" in the last 15 minutes, on this pod',
    windowMs: SELF_SOURCES_WINDOW_MS,
  })
  /** When each class was last logged, and how many reports of it went unlogged since. */
  const logged = new Map<string, { at: number; unlogged: number }>()

  // Both are JSON; Fastify parses only `application/json` by itself (this plugin's scope).
  app.addContentTypeParser(
    Object.keys(REPORT_TYPES),
    { parseAs: 'string' },
    app.getDefaultJsonParser('error', 'error'),
  )

  app.post(
    CSP_REPORT_PATH,
    {
      bodyLimit: REPORT_BODY_LIMIT,
      config: {
        rateLimit: {
          max: CLIENT_ERROR_RATE_LIMIT.max,
          timeWindow: CLIENT_ERROR_RATE_LIMIT.windowMs,
        },
      },
    },
    async (request, reply) => {
      const mediaType = mediaTypeOf(request.headers['content-type'])
      const type = Object.hasOwn(REPORT_TYPES, mediaType)
        ? REPORT_TYPES[mediaType as keyof typeof REPORT_TYPES]
        : undefined
      if (!type) {
        return reply
          .code(415)
          .send({ error: 'Reports are application/reports+json or application/csp-report' })
      }
      let reported
      try {
        reported = violationsOf(type, request.body)
      } catch {
        return reply.code(400).send({ error: 'Not a report of Content Security Policy violations' })
      }
      const now = Date.now()
      for (const violation of reported) {
        const { directive, source } = classify(violation, origins)
        violations.labels({ directive, source }).inc()
        if (source === 'self') selfSources.add(request.ip)
        const key = `${directive} ${source}`
        const last = logged.get(key)
        if (last && now - last.at < LOG_INTERVAL_MS) {
          last.unlogged += 1
          continue
        }
        logged.set(key, { at: now, unlogged: 0 })
        const page = pageOfReport(violation, origins)
        request.log.warn(
          {
            directive,
            source,
            disposition: violation.disposition,
            page: page ? page.page.path : 'other',
            locale: page?.locale,
            unloggedSince: last ? last.unlogged : undefined,
          },
          'CSP violation reported',
        )
      }
      return reply.code(204).send()
    },
  )
}
