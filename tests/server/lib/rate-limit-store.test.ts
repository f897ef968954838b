import { afterEach, describe, expect, it, vi } from 'vitest'
import { CLIENT_ERROR_RATE_LIMIT } from '#server/routes/client-errors.ts'
import { ExpiringRateLimitStore } from '#server/lib/rate-limit-store.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import { eventually } from '#tests/helpers/eventually.ts'
import { withToken } from '#tests/helpers/form-token.ts'

const ADDRESS = '203.0.113.7'

type App = Awaited<ReturnType<typeof buildTestApp>>

function keysOf(app: App): string[] {
  if (!app.rateLimitStore) throw new Error('expected the in-memory rate-limit store')
  return app.rateLimitStore.keys()
}

let app: App | undefined

afterEach(async () => {
  vi.useRealTimers()
  await app?.close()
  app = undefined
})

describe('per-IP rate-limit counters without Redis', { timeout: 30_000 }, () => {
  it('forget the contact form sender’s address when the window ends', async () => {
    const limited = await buildTestApp({ CONTACT_RATE_MAX: '1', CONTACT_RATE_WINDOW: '1 second' })
    app = limited
    const post = async () =>
      limited.inject({
        method: 'POST',
        url: '/api/contact',
        remoteAddress: ADDRESS,
        payload: await withToken({ email: 'not an address' }),
      })
    expect((await post()).statusCode).toBe(400)
    expect((await post()).statusCode).toBe(429)
    expect(keysOf(app)).toContain(ADDRESS)
    // The store itself holds no trace once the window is over, with no further request.
    await eventually(() => keysOf(limited).length === 0, 5_000)
    expect((await post()).statusCode).toBe(400)
  })

  it('forget the error beacon’s address when its window ends', async () => {
    app = await buildTestApp()
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const report = { kind: 'chunk-load', path: '/', buildId: 'abc' }
    const answer = await app.inject({
      method: 'POST',
      url: '/api/client-errors',
      remoteAddress: ADDRESS,
      payload: report,
    })
    expect(answer.statusCode).toBe(204)
    expect(keysOf(app)).toEqual([ADDRESS])
    vi.advanceTimersByTime(CLIENT_ERROR_RATE_LIMIT.windowMs - 1)
    expect(keysOf(app)).toEqual([ADDRESS])
    vi.advanceTimersByTime(1)
    expect(keysOf(app)).toEqual([])
  })
})

describe('the in-memory rate-limit store under a flood of addresses', () => {
  it('forgets the oldest window early rather than growing without bound', () => {
    const store = new ExpiringRateLimitStore(3)
    const route = new store.Store({})
    const counts: number[] = []
    for (const address of ['198.51.100.1', '198.51.100.2', '198.51.100.3', '198.51.100.4']) {
      route.incr(address, (_error, result) => counts.push(result?.current ?? 0), 60_000, 5)
    }
    expect(store.keys()).toEqual(['198.51.100.2', '198.51.100.3', '198.51.100.4'])
    expect(counts).toEqual([1, 1, 1, 1])
    store.clear()
    expect(store.keys()).toEqual([])
  })
})
