import { z } from 'zod'
import { pageAt, type LocalizedPage } from '#shared/pages.ts'

/**
 * Reports of the browser about what the Content Security Policy refused
 * (docs/security.md#security-the-policy-enforced-and-reported): the two formats browsers send, made
 * one, and sorted into a few bounded classes, so the counter's series are fixed and nothing of a
 * visitor's page but its route reaches a log.
 */

/** The directives a violation is counted under; any other is `other`. */
export const VIOLATION_DIRECTIVES = [
  'default-src',
  'script-src',
  'script-src-elem',
  'script-src-attr',
  'style-src',
  'style-src-elem',
  'style-src-attr',
  'img-src',
  'font-src',
  'connect-src',
  'worker-src',
  'manifest-src',
  'media-src',
  'frame-src',
  'child-src',
  'object-src',
  'base-uri',
  'form-action',
  'frame-ancestors',
  'require-trusted-types-for',
  'trusted-types',
  'other',
] as const
export type ViolationDirective = (typeof VIOLATION_DIRECTIVES)[number]

/**
 * Where what was refused came from: the site's own origin (a broken build: alert), its CDN,
 * a browser extension, an inline script or style, `eval`, or anything else (an injection,
 * a proxy rewriting pages, a forged report).
 */
export const VIOLATION_SOURCES = ['self', 'cdn', 'extension', 'inline', 'eval', 'other'] as const
export type ViolationSource = (typeof VIOLATION_SOURCES)[number]

/** One violation, as both formats describe it; only what is classified or logged. */
export type Violation = {
  directive: string
  /** The blocked URL, or a keyword: `inline`, `eval`, `trusted-types-sink`, … */
  blocked: string
  /** The script that caused it, where the browser names one. */
  sourceFile: string
  /** The page it happened on. */
  documentUrl: string
  disposition: 'enforce' | 'report'
}

/** Browsers put long URLs and policies here; anything longer is not a browser's report. */
const text = z.string().max(4096)
const disposition = z.enum(['enforce', 'report']).catch('enforce')

/** `application/reports+json` (Reporting API, `report-to`): a batch of reports. */
const ReportsSchema = z
  .array(
    z.looseObject({
      type: z.string().max(64),
      body: z.looseObject({}).optional(),
    }),
  )
  .max(50)

const CspViolationBodySchema = z.looseObject({
  documentURL: text,
  blockedURL: text.optional(),
  effectiveDirective: text,
  sourceFile: text.nullish(),
  disposition,
})

/** `application/csp-report` (`report-uri`): one report. */
const CspReportSchema = z.strictObject({
  'csp-report': z.looseObject({
    'document-uri': text,
    'blocked-uri': text.optional(),
    'effective-directive': text.optional(),
    'violated-directive': text.optional(),
    'source-file': text.optional(),
    disposition,
  }),
})

/** The violations of a body of either type; throws a ZodError on anything else. */
export function violationsOf(contentType: 'reports' | 'csp-report', body: unknown): Violation[] {
  // Some browsers post a single report of the Reporting API's shape to `report-uri`.
  if (contentType === 'csp-report' && !(body && typeof body === 'object' && 'csp-report' in body)) {
    return violationsOf('reports', [body])
  }
  if (contentType === 'csp-report') {
    const report = CspReportSchema.parse(body)['csp-report']
    const directive =
      report['effective-directive'] ?? report['violated-directive']?.split(' ')[0] ?? ''
    return [
      {
        directive,
        blocked: report['blocked-uri'] ?? '',
        sourceFile: report['source-file'] ?? '',
        documentUrl: report['document-uri'],
        disposition: report.disposition,
      },
    ]
  }
  return ReportsSchema.parse(body)
    .filter((report) => report.type === 'csp-violation')
    .map((report) => {
      const violation = CspViolationBodySchema.parse(report.body)
      return {
        directive: violation.effectiveDirective,
        blocked: violation.blockedURL ?? '',
        sourceFile: violation.sourceFile ?? '',
        documentUrl: violation.documentURL,
        disposition: violation.disposition,
      }
    })
}

/** URL schemes of browser extensions (WebKit hides their URLs behind `webkit-masked-url:`). */
const EXTENSION_SCHEMES = new Set([
  'chrome-extension:',
  'moz-extension:',
  'safari-extension:',
  'safari-web-extension:',
  'webkit-masked-url:',
])

/** Keywords browsers report for what has no URL of its own. */
const NO_URL = new Set(['trusted-types-sink', 'trusted-types-policy', ''])

export type Origins = { own: string; cdn: string | undefined }

function sourceOfUrl(value: string, origins: Origins): ViolationSource {
  const url = URL.parse(value)
  if (!url) return 'other'
  if (EXTENSION_SCHEMES.has(url.protocol)) return 'extension'
  if (url.origin === origins.own) return 'self'
  if (origins.cdn && url.origin === origins.cdn) return 'cdn'
  return 'other'
}

/** The directive and source class a violation is counted under. */
export function classify(
  violation: Violation,
  origins: Origins,
): { directive: ViolationDirective; source: ViolationSource } {
  const directive = (VIOLATION_DIRECTIVES as readonly string[]).includes(violation.directive)
    ? (violation.directive as ViolationDirective)
    : 'other'
  const script = violation.sourceFile ? sourceOfUrl(violation.sourceFile, origins) : null
  let source: ViolationSource
  if (script === 'extension') source = 'extension'
  else if (violation.blocked === 'inline') source = 'inline'
  else if (violation.blocked === 'eval' || violation.blocked === 'wasm-eval') source = 'eval'
  // A Trusted Types sink or policy: the script that used it is the source.
  else if (NO_URL.has(violation.blocked)) source = script ?? 'other'
  else source = sourceOfUrl(violation.blocked, origins)
  return { directive, source }
}

/** The page a report came from, as the route table names it (never its query or address). */
export function pageOfReport(violation: Violation, origins: Origins): LocalizedPage | undefined {
  const url = URL.parse(violation.documentUrl)
  return url && url.origin === origins.own ? pageAt(url.pathname) : undefined
}
