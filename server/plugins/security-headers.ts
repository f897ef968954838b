import { IncomingMessage, ServerResponse } from 'node:http'
import { Socket } from 'node:net'
import fastifyPlugin from 'fastify-plugin'
import helmet, { type HelmetOptions } from 'helmet'

/** Features the site never uses, switched off for it and anything it might embed. */
const PERMISSIONS_POLICY =
  'accelerometer=(), camera=(), geolocation=(), gyroscope=(), magnetometer=(), microphone=(), payment=(), usb=(), interest-cohort=()'

export type SecurityHeadersOptions = {
  isDevelopment: boolean
  /** A CDN origin that may serve scripts, styles, fonts and images besides the site itself. */
  cdnUrl: string | undefined
  /** Seconds of Strict-Transport-Security; 0 sends none (plain HTTP in development). */
  hstsMaxAge: number
}

function helmetOptions({
  isDevelopment,
  cdnUrl,
  hstsMaxAge,
}: SecurityHeadersOptions): HelmetOptions {
  const assetOrigins = cdnUrl ? ["'self'", cdnUrl] : ["'self'"]
  return {
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
    crossOriginEmbedderPolicy: false,
    frameguard: { action: 'deny' },
  }
}

/**
 * The response headers helmet would set, worked out once. No header depends on the request
 * (no CSP nonces: the pages have no inline script), so running helmet on every request,
 * which parses the CSP directives each time, would only cost throughput.
 */
export function securityHeaders(options: SecurityHeadersOptions): Record<string, string> {
  const request = new IncomingMessage(new Socket())
  const response = new ServerResponse(request)
  const outcome: { error?: unknown } = {}
  helmet(helmetOptions(options))(request, response, (error?: unknown) => {
    outcome.error = error
  })
  if (outcome.error !== undefined) {
    throw new Error('helmet refused the security header options', { cause: outcome.error })
  }
  const headers: Record<string, string> = {}
  for (const [name, value] of Object.entries(response.getHeaders())) {
    if (value !== undefined) headers[name] = String(value)
  }
  headers['permissions-policy'] = PERMISSIONS_POLICY
  return headers
}

/** Security headers on every response, pages, assets, API and errors alike. */
export const securityHeadersPlugin = fastifyPlugin<SecurityHeadersOptions>(
  (app, options, done) => {
    const headers = securityHeaders(options)
    app.addHook('onRequest', (_request, reply, next) => {
      reply.headers(headers)
      next()
    })
    done()
  },
  { name: 'security-headers', fastify: '5.x' },
)
