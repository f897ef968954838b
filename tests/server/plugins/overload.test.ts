import type { FastifyInstance } from 'fastify'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import { holdEventLoop, whileOverloaded, yieldToTimers } from '#tests/helpers/overload.ts'

type LogLine = { level: number; msg: string; [key: string]: unknown }

describe('an overloaded process (MAX_EVENT_LOOP_DELAY_MS=100)', () => {
  let app: FastifyInstance
  const lines: LogLine[] = []

  beforeAll(async () => {
    app = await buildTestApp(
      { MAX_EVENT_LOOP_DELAY_MS: '100' },
      {
        logger: {
          level: 'warn',
          stream: { write: (line: string) => void lines.push(JSON.parse(line) as LogLine) },
        },
      },
    )
  })
  afterAll(() => app.close())

  it('answers a page with 503, Retry-After and the localized unavailable page', async () => {
    const response = await whileOverloaded(app, { url: '/de/imprint' })
    expect(response.statusCode).toBe(503)
    expect(response.headers['retry-after']).toBe('10')
    expect(response.headers['cache-control']).toBe('no-store')
    expect(response.headers['content-type']).toBe('text/html; charset=utf-8')
    expect(response.body).toContain('<html lang="de"')
    expect(response.body).toContain('<h1>Vorübergehend nicht erreichbar</h1>')
    expect(response.body).toContain('Erneut versuchen')
    // The security headers still come with it.
    expect(response.headers['content-security-policy']).toContain("script-src 'self'")
  })

  it('answers the API with 503 and JSON', async () => {
    const response = await whileOverloaded(app, {
      method: 'POST',
      url: '/api/contact',
      payload: { name: 'Ada' },
    })
    expect(response.statusCode).toBe(503)
    expect(response.headers['retry-after']).toBe('10')
    // The contact route's schema keeps what its form script reads.
    expect(response.json()).toEqual({ status: 'error', retryAfterSeconds: 10 })
    const other = await whileOverloaded(app, { method: 'POST', url: '/api/client-errors' })
    expect(other.statusCode).toBe(503)
    expect(other.json()).toEqual({
      status: 'error',
      error: 'Service Unavailable',
      retryAfterSeconds: 10,
    })
  })

  it('answers the no-JavaScript form post with the page in the language it came from', async () => {
    const response = await whileOverloaded(app, {
      method: 'POST',
      url: '/api/contact',
      headers: {
        'content-type': 'application/x-www-form-urlencoded',
        'sec-fetch-dest': 'document',
        referer: 'http://localhost:3000/pl/contact',
      },
      payload: 'name=Ada',
    })
    expect(response.statusCode).toBe(503)
    expect(response.body).toContain('<html lang="pl"')
    expect(response.body).toContain('Ponów próbę')
  })

  it('fails readiness but not liveness, and still serves its metrics', async () => {
    const ready = await whileOverloaded(app, { url: '/readyz' })
    expect(ready.statusCode).toBe(503)
    expect(ready.json()).toEqual({ status: 'overloaded' })
    const live = await whileOverloaded(app, { url: '/healthz' })
    expect(live.statusCode).toBe(200)
    const metrics = await whileOverloaded(app, { url: '/metrics' })
    expect(metrics.statusCode).toBe(200)
    const refused = /^http_overload_refusals_total\{reason="eventLoopDelay"\} (\d+)$/m.exec(
      metrics.body,
    )
    expect(Number(refused?.[1])).toBeGreaterThanOrEqual(2)
  })

  it('logs a warning with the measured delay, and never an error', () => {
    const warning = lines.find((line) => line.msg === 'overloaded: refusing requests with 503')
    expect(warning).toMatchObject({ level: 40, reason: 'eventLoopDelay', limit: 100 })
    expect(warning?.measured).toBeGreaterThan(100)
    expect(lines.filter((line) => line.level >= 50)).toEqual([])
  })

  it('answers again once the loop is free', async () => {
    for (let wait = 0; wait < 50 && app.isUnderPressure(); wait++) {
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
    const response = await app.inject({ url: '/de/imprint' })
    expect(response.statusCode).toBe(200)
  })
})

describe('the guard switched off (MAX_EVENT_LOOP_DELAY_MS=0, as in the other tests)', () => {
  it('serves a page after the loop was held', async () => {
    const app = await buildTestApp({ MAX_EVENT_LOOP_DELAY_MS: '0' })
    try {
      for (let block = 0; block < 8; block++) {
        holdEventLoop(200)
        await yieldToTimers()
      }
      await new Promise((resolve) => setTimeout(resolve, 1_100))
      expect(app.isUnderPressure()).toBe(false)
      expect((await app.inject({ url: '/imprint' })).statusCode).toBe(200)
    } finally {
      await app.close()
    }
  })
})
