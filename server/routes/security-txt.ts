import type { FastifyInstance } from 'fastify'
import { COMPANY, phoneHref } from '#shared/company.ts'
import { LOCALES } from '#shared/locales.ts'

/**
 * How long a build's `security.txt` stays valid: RFC 9116 asks for an `Expires` less than a
 * year ahead. A release older than this has lapsed; the go-live check warns 30 days before
 * (docs/go-live.md).
 */
export const SECURITY_TXT_DAYS = 360

/** When the `security.txt` of a build made at `builtAt` (ms) expires. */
export function securityTxtExpires(builtAt: number): Date {
  return new Date(builtAt + SECURITY_TXT_DAYS * 86_400_000)
}

/**
 * `/.well-known/security.txt` (RFC 9116): whom to tell of a vulnerability, in which languages,
 * until when this file holds. The contacts are the company's (`shared/company.ts`); the site
 * publishes no disclosure policy of its own, so there is no `Policy` field.
 */
export function securityTxt(baseUrl: string, builtAt: number): string {
  return [
    `Contact: mailto:${COMPANY.email}`,
    `Contact: ${phoneHref(COMPANY.phone)}`,
    `Expires: ${securityTxtExpires(builtAt).toISOString()}`,
    `Preferred-Languages: ${[...LOCALES].sort().join(', ')}`,
    `Canonical: ${baseUrl}/.well-known/security.txt`,
    '',
  ].join('\n')
}

/** Served with the site's headers, like every response (response-headers, security-headers). */
export async function securityTxtRoutes(app: FastifyInstance) {
  const text = securityTxt(app.config.APP_BASE_URL, app.renderer.build.timestamp)
  app.get('/.well-known/security.txt', async (_request, reply) => {
    reply.type('text/plain; charset=utf-8').header('Cache-Control', 'public, max-age=3600')
    return text
  })
}
