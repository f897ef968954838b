import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet'
import fastifyPlugin from 'fastify-plugin'
import { isSubresourceOnly } from '#shared/subresources.ts'
import { TRUSTED_TYPES_POLICIES } from '#shared/trusted-types.ts'
import { CSP_REPORT_PATH } from '../routes/csp-reports.ts'

/**
 * DOM XSS sinks (`innerHTML`, script text and URLs, `new Worker`, …) take only values made by
 * a policy the site names (docs/decisions/trusted-types.md).
 */
const TRUSTED_TYPES_DIRECTIVES = {
  requireTrustedTypesFor: ["'script'"],
  trustedTypes: Object.values(TRUSTED_TYPES_POLICIES),
}

/**
 * Development's Trusted Types, reported but not enforced: Vite's client writes its error
 * overlay with `innerHTML`. The browser's console shows what production would refuse.
 */
const DEVELOPMENT_TRUSTED_TYPES = [
  `require-trusted-types-for ${TRUSTED_TYPES_DIRECTIVES.requireTrustedTypesFor.join(' ')}`,
  `trusted-types ${TRUSTED_TYPES_DIRECTIVES.trustedTypes.join(' ')}`,
].join('; ')

/** The Reporting API's name for the CSP's report endpoint (`Reporting-Endpoints`, `report-to`). */
const REPORT_GROUP = 'csp'

/**
 * `Reporting-Endpoints`: where browsers with the Reporting API send what the CSP's `report-to`
 * names (relative: resolved against each page's own origin). Written by response-headers.ts.
 */
export const REPORTING_ENDPOINTS = `${REPORT_GROUP}="${CSP_REPORT_PATH}"`

export type SecurityHeadersOptions = {
  isDevelopment: boolean
  /** A CDN origin that may serve scripts besides the site itself. */
  cdnUrl: string | undefined
  /** Hashes (`'sha256-…'`) of the inline scripts the pages carry: the import map, with a CDN. */
  inlineScripts: readonly string[]
  /** Seconds of Strict-Transport-Security; 0 sends none (plain HTTP in development). */
  hstsMaxAge: number
}

/**
 * The site's security policy, written once: what @fastify/helmet sends with every response
 * (docs/decisions/fastifyhelmet-runs-on-every-request.md), subresources in part (below).
 * Helmet's defaults stand for what is not named here (nosniff, X-DNS-Prefetch-Control,
 * Origin-Agent-Cluster, COOP and CORP `same-origin`, …).
 */
export function helmetOptions({
  isDevelopment,
  cdnUrl,
  inlineScripts,
  hstsMaxAge,
}: SecurityHeadersOptions): FastifyHelmetOptions {
  return {
    // Every response, pages, assets, API answers and errors alike.
    global: true,
    // The pages have no inline script or style, so no nonce is needed, and each request
    // would otherwise pay for two random values and a CSP built around them.
    enableCSPNonces: false,
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        // A CDN serves scripts only, each checked by its integrity
        // (docs/security.md#security-the-policy-enforced-and-reported).
        scriptSrc: ["'self'", ...(cdnUrl ? [cdnUrl] : []), ...inlineScripts],
        // Development only: Vite injects edited styles as <style> and talks over a WebSocket.
        styleSrc: isDevelopment ? ["'self'", "'unsafe-inline'"] : ["'self'"],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: isDevelopment ? ["'self'", 'ws:'] : ["'self'"],
        // Development only: Vite's client pings for a restarted server from a blob: worker.
        workerSrc: isDevelopment ? ["'self'", 'blob:'] : ["'self'"],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
        // Enforced everywhere but in development (below).
        ...(isDevelopment ? {} : TRUSTED_TYPES_DIRECTIVES),
        // Violations are reported (docs/security.md#security-the-policy-enforced-and-reported):
        // Chromium and Firefox through the Reporting API (over HTTPS; both then ignore
        // `report-uri`), WebKit to `report-uri`.
        reportTo: [REPORT_GROUP],
        reportUri: [CSP_REPORT_PATH],
      },
    },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    strictTransportSecurity: hstsMaxAge ? { maxAge: hstsMaxAge, includeSubDomains: true } : false,
    // The site embeds nothing cross-origin that could send CORP headers; COEP would only
    // risk breaking a CDN without such headers.
    crossOriginEmbedderPolicy: false,
    frameguard: { action: 'deny' },
  }
}

/**
 * What a script, stylesheet or font of the build keeps of the policy (shared/subresources.ts):
 * nosniff, CORP and HSTS, which browsers apply to such responses; helmet's route option turns
 * off the headers that only govern documents.
 */
const SUBRESOURCE_HELMET = {
  contentSecurityPolicy: false,
  crossOriginOpenerPolicy: false,
  originAgentCluster: false,
  referrerPolicy: false,
  frameguard: false,
  xDnsPrefetchControl: false,
  xDownloadOptions: false,
  xPermittedCrossDomainPolicies: false,
  xXssProtection: false,
} as const

/**
 * Security headers by @fastify/helmet, on every response. Registered first, so that what
 * answers early (the overload guard, Vite's middleware in development) carries them too.
 * The build's scripts, stylesheets and fonts get helmet's route option `SUBRESOURCE_HELMET`,
 * set before helmet's own onRoute hook reads it
 * (docs/decisions/subresources-carry-the-headers-that-apply-to-them.md).
 */
export const securityHeadersPlugin = fastifyPlugin<SecurityHeadersOptions>(
  async (app, options) => {
    app.addHook('onRoute', (route) => {
      if (route.helmet === undefined && isSubresourceOnly(route.url)) {
        route.helmet = SUBRESOURCE_HELMET
      }
    })
    await app.register(fastifyHelmet, helmetOptions(options))
    if (options.isDevelopment) {
      // On the raw response, as helmet does, so Vite's middleware answers carry it too.
      app.addHook('onRequest', async (_request, reply) => {
        reply.raw.setHeader('Content-Security-Policy-Report-Only', DEVELOPMENT_TRUSTED_TYPES)
      })
    }
  },
  { name: 'security-headers', fastify: '5.x' },
)
