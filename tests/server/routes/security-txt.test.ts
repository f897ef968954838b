import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { COMPANY } from '#shared/company.ts'
import { LOCALES } from '#shared/locales.ts'
import { SECURITY_TXT_DAYS, securityTxt } from '#server/routes/security-txt.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'

const DAY = 86_400_000
let app: FastifyInstance
beforeAll(async () => {
  app = await buildTestApp({ APP_BASE_URL: 'https://www.modernwerk.example' })
})
afterAll(async () => {
  await app.close()
})

/** The fields of a security.txt, by name (RFC 9116, 2.5). */
function fields(text: string): Map<string, string[]> {
  const found = new Map<string, string[]>()
  for (const line of text.split('\n').filter(Boolean)) {
    const [, name = '', value = ''] = /^([A-Za-z-]+): (.+)$/.exec(line) ?? []
    found.set(name, [...(found.get(name) ?? []), value])
  }
  return found
}

describe('/.well-known/security.txt (RFC 9116)', () => {
  it('names the company as the contact, the languages, its own address and an expiry', async () => {
    const response = await app.inject('/.well-known/security.txt')
    expect(response.statusCode).toBe(200)
    expect(response.headers['content-type']).toBe('text/plain; charset=utf-8')
    const found = fields(response.body)
    expect(found.get('Contact')).toEqual([
      `mailto:${COMPANY.email}`,
      `tel:${COMPANY.phone.replace(/[^+\d]/g, '')}`,
    ])
    expect(found.get('Preferred-Languages')).toEqual(['de, en, pl'])
    expect(found.get('Preferred-Languages')?.[0]?.split(', ').sort()).toEqual([...LOCALES].sort())
    expect(found.get('Canonical')).toEqual([
      'https://www.modernwerk.example/.well-known/security.txt',
    ])
    expect(found.get('Expires')).toHaveLength(1)
    expect([...found.keys()].sort()).toEqual([
      'Canonical',
      'Contact',
      'Expires',
      'Preferred-Languages',
    ])
  })

  it('has not lapsed and will not for 30 days; it expires less than a year after the build', async () => {
    const response = await app.inject('/.well-known/security.txt')
    const expires = Date.parse(fields(response.body).get('Expires')?.[0] ?? '')
    expect(expires - Date.now(), 'rebuild the release: its security.txt lapses').toBeGreaterThan(
      30 * DAY,
    )
    expect(expires - app.renderer.build.timestamp).toBe(SECURITY_TXT_DAYS * DAY)
    expect(SECURITY_TXT_DAYS).toBeLessThan(365)
  })

  it('an old build’s file says so: its expiry is in the past', () => {
    const built = Date.parse('2025-01-10T08:00:00Z')
    const text = securityTxt('https://www.modernwerk.example', built)
    expect(fields(text).get('Expires')).toEqual([
      new Date(built + SECURITY_TXT_DAYS * DAY).toISOString(),
    ])
    expect(Date.parse(fields(text).get('Expires')?.[0] ?? '')).toBeLessThan(Date.now())
  })

  it('is served with the headers of every other response', async () => {
    const [file, robots] = await Promise.all([
      app.inject('/.well-known/security.txt'),
      app.inject('/robots.txt'),
    ])
    const names = (headers: object) =>
      Object.keys(headers)
        .filter((name) => !['content-length', 'etag', 'date'].includes(name))
        .sort()
    expect(names(file.headers)).toEqual(names(robots.headers))
    expect(file.headers['x-content-type-options']).toBe('nosniff')
    expect(file.headers['content-security-policy']).toBe(robots.headers['content-security-policy'])
  })
})
