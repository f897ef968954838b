import fastifyHelmet, { type FastifyHelmetOptions } from '@fastify/helmet'
import fastifyPlugin from 'fastify-plugin'

export type SecurityHeadersOptions = {
  isDevelopment: boolean
  /** A CDN origin that may serve scripts, styles, fonts and images besides the site itself. */
  cdnUrl: string | undefined
  /** Seconds of Strict-Transport-Security; 0 sends none (plain HTTP in development). */
  hstsMaxAge: number
}

/**
 * The site's security policy, written once: what @fastify/helmet sends with every response.
 * Helmet's defaults stand for what is not named here (nosniff, X-DNS-Prefetch-Control,
 * Origin-Agent-Cluster, COOP and CORP `same-origin`, …).
 */
export function helmetOptions({
  isDevelopment,
  cdnUrl,
  hstsMaxAge,
}: SecurityHeadersOptions): FastifyHelmetOptions {
  const assetOrigins = cdnUrl ? ["'self'", cdnUrl] : ["'self'"]
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
        scriptSrc: assetOrigins,
        // Development only: Vite injects edited styles as <style> and talks over a WebSocket.
        styleSrc: isDevelopment ? [...assetOrigins, "'unsafe-inline'"] : assetOrigins,
        imgSrc: [...assetOrigins, 'data:'],
        fontSrc: assetOrigins,
        connectSrc: isDevelopment ? ["'self'", 'ws:'] : ["'self'"],
        // Development only: Vite's client pings for a restarted server from a blob: worker.
        workerSrc: isDevelopment ? ["'self'", 'blob:'] : ["'self'"],
        manifestSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
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
 * Security headers by @fastify/helmet, on every response. Registered first, so that what
 * answers early (the overload guard, Vite's middleware in development) carries them too.
 */
export const securityHeadersPlugin = fastifyPlugin<SecurityHeadersOptions>(
  async (app, options) => {
    await app.register(fastifyHelmet, helmetOptions(options))
  },
  { name: 'security-headers', fastify: '5.x' },
)
