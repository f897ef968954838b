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

export type ResponseHeadersOptions = SecurityHeadersOptions & {
  /** The build that serves the process (known once the renderer is registered). */
  buildId: () => string
}

/**
 * The headers every response carries, pages, assets, API and errors alike, set in one hook
 * that runs first: the security headers, `X-Build-Id` (open pages compare it with their own
 * and reload on a new build) and `X-Request-Id` (the id of the request's log line). One hook,
 * not one per concern: each hook is work every request pays for.
 */
export const responseHeadersPlugin = fastifyPlugin<ResponseHeadersOptions>(
  (app, { buildId, ...options }, done) => {
    const headers = securityHeaders(options)
    app.addHook('onRequest', (request, reply, next) => {
      reply.headers(headers)
      reply.header('x-build-id', buildId())
      reply.header('x-request-id', request.id)
      next()
    })
    done()
  },
  { name: 'response-headers', fastify: '5.x' },
)
