import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { startBuildWatch } from '#client/runtime/build-watch.ts'
import {
  BUILD_META_DELAY_MS,
  BUILD_POLL_INTERVAL_MS,
  IDLE_FALLBACK_BUDGET_MS,
  RELOAD_GUARD_MS,
} from '#client/runtime/constants.ts'
import { createHttpClient } from '#client/runtime/http.ts'
import { createReloadGuard } from '#client/runtime/reload-guard.ts'
import { resolveNavigation } from '#shared/navigation.ts'

const ORIGIN = 'https://www.modernwerk.example'

describe('navigation targets', () => {
  it.each([
    ['/about', { kind: 'internal', path: '/about' }],
    ['/services?x=1#faq', { kind: 'internal', path: '/services?x=1#faq' }],
    [`${ORIGIN}/contact`, { kind: 'internal', path: '/contact' }],
  ])('%s is internal', (to, expected) => {
    expect(resolveNavigation(to, { origin: ORIGIN })).toEqual(expected)
  })

  it.each(['https://example.org/', '//evil.example/path', 'http://www.modernwerk.example/'])(
    '%s needs the external flag',
    (to) => {
      expect(() => resolveNavigation(to, { origin: ORIGIN })).toThrow(
        'Navigating to an external URL is not allowed by default',
      )
      expect(resolveNavigation(to, { origin: ORIGIN, external: true }).kind).toBe('external')
    },
  )

  it.each([
    ['javascript:alert(1)', 'javascript:'],
    ['JaVaScRiPt:alert(1)', 'javascript:'],
    [' \tjavascript:alert(1)', 'javascript:'],
    ['\u0000\u001fjavascript:alert(1)', 'javascript:'],
    ['java\tscript:alert(1)', 'javascript:'],
    ['data:text/html,<script>alert(1)</script>', 'data:'],
    ['blob:https://www.modernwerk.example/uuid', 'blob:'],
    ['VBScript:msgbox(1)', 'vbscript:'],
  ])('%j is refused, naming %s, even when external', (to, protocol) => {
    for (const external of [false, true]) {
      expect(() => resolveNavigation(to, { origin: ORIGIN, external })).toThrow(
        `the protocol "${protocol}"`,
      )
    }
  })
})

describe('reload guard', () => {
  it('allows one reload per path within 10 s, and survives broken storage', () => {
    let now = 1_000_000
    const store = new Map<string, string>()
    const storage = {
      getItem: (key: string) => store.get(key) ?? null,
      setItem: (key: string, value: string) => void store.set(key, value),
    }
    const guard = createReloadGuard(
      () => storage,
      () => now,
    )
    expect(guard('/about')).toBe(true)
    expect(guard('/about')).toBe(false)
    expect(guard('/contact')).toBe(true)
    now += RELOAD_GUARD_MS - 1
    expect(guard('/about')).toBe(false)
    now += 1
    expect(guard('/about')).toBe(true)

    // A fresh page (after the reload) reads the guard from storage.
    expect(
      createReloadGuard(
        () => storage,
        () => now,
      )('/about'),
    ).toBe(false)

    const broken = {
      getItem: () => {
        throw new Error('SecurityError')
      },
      setItem: () => {
        throw new Error('QuotaExceededError')
      },
    }
    const tolerant = createReloadGuard(
      () => broken,
      () => now,
    )
    expect(tolerant('/about')).toBe(true)
    expect(tolerant('/about')).toBe(false)
  })
})

describe('build watch schedule', () => {
  afterEach(() => {
    vi.useRealTimers()
  })

  it('checks its own build 1 s after idle, then polls hourly from one interval after load', async () => {
    vi.useFakeTimers()
    const fetchMeta = vi.fn(() => Promise.resolve({}))
    const fetchLatest = vi.fn(() => Promise.resolve({ id: 'a', timestamp: 1 }))
    const onOutdated = vi.fn()
    startBuildWatch({
      own: { id: 'a', timestamp: 1 },
      fetchMeta,
      fetchLatest,
      onOutdated,
      timers: { setTimeout, setInterval },
    })
    await vi.advanceTimersByTimeAsync(IDLE_FALLBACK_BUDGET_MS + BUILD_META_DELAY_MS - 1)
    expect(fetchMeta).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect(fetchMeta).toHaveBeenCalledWith('a')

    await vi.advanceTimersByTimeAsync(
      BUILD_POLL_INTERVAL_MS - IDLE_FALLBACK_BUDGET_MS - BUILD_META_DELAY_MS - 1,
    )
    expect(fetchLatest).not.toHaveBeenCalled()
    await vi.advanceTimersByTimeAsync(1)
    expect(fetchLatest).toHaveBeenCalledTimes(1)
    await vi.advanceTimersByTimeAsync(BUILD_POLL_INTERVAL_MS)
    expect(fetchLatest).toHaveBeenCalledTimes(2)
    expect(onOutdated).not.toHaveBeenCalled()
  })

  it('reports a new build once, from a poll, a 404 of its own meta or a response header', async () => {
    vi.useFakeTimers()
    const onOutdated = vi.fn()
    const watch = startBuildWatch({
      own: { id: 'a', timestamp: 1 },
      fetchMeta: () => Promise.reject(Object.assign(new Error('Not Found'), { status: 404 })),
      fetchLatest: () => Promise.resolve({ id: 'b', timestamp: 2 }),
      onOutdated,
      intervalMs: 5_000,
      timers: {
        setTimeout,
        setInterval,
        requestIdleCallback: (callback) => setTimeout(callback, 0),
      },
    })
    await vi.advanceTimersByTimeAsync(BUILD_META_DELAY_MS)
    expect(onOutdated).toHaveBeenCalledWith(null)
    await vi.advanceTimersByTimeAsync(5_000)
    watch.sawBuildId('c')
    expect(onOutdated).toHaveBeenCalledTimes(1)
    expect(watch.isOutdated).toBe(true)
  })

  it('stays silent on network errors', async () => {
    vi.useFakeTimers()
    const onOutdated = vi.fn()
    startBuildWatch({
      own: { id: 'a', timestamp: 1 },
      fetchMeta: () => Promise.reject(new TypeError('fetch failed')),
      fetchLatest: () => Promise.reject(new TypeError('fetch failed')),
      onOutdated,
      intervalMs: 1_000,
      timers: { setTimeout, setInterval },
    })
    await vi.advanceTimersByTimeAsync(5_000)
    expect(onOutdated).not.toHaveBeenCalled()
  })
})

describe('HTTP client retries (against a real local server)', () => {
  let server: Server
  let base = ''
  const hits = new Map<string, number>()

  beforeAll(async () => {
    server = createServer((request, response) => {
      const key = `${request.method} ${request.url}`
      hits.set(key, (hits.get(key) ?? 0) + 1)
      const status = Number(request.url?.split('/')[1] ?? 200)
      response.writeHead(status, { 'Content-Type': 'application/json', 'X-Build-Id': 'srv-1' })
      response.end(JSON.stringify({ status }))
    })
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  })

  afterAll(async () => {
    await new Promise((resolve) => server.close(resolve))
  })

  const RETRIED = [408, 409, 425, 429, 500, 502, 503, 504]
  const cases = [
    ...RETRIED.map((status) => ({ method: 'GET', status, requests: 2 })),
    ...[400, 401, 403, 404, 422, 501].map((status) => ({ method: 'GET', status, requests: 1 })),
    ...['POST', 'PUT', 'PATCH', 'DELETE'].flatMap((method) =>
      [500, 503, 429].map((status) => ({ method, status, requests: 1 })),
    ),
  ]

  it.each(cases)(
    '$method answered $status: $requests request(s), then an error',
    async ({ method, status, requests }) => {
      const seen: string[] = []
      const http = createHttpClient({ baseURL: base, onBuildId: (id) => seen.push(id) })
      const path = `/${status}/${method}-${requests}`
      await expect(
        http(path, { method, body: method === 'GET' ? undefined : { a: 1 }, retryDelay: 1 }),
      ).rejects.toMatchObject({ status })
      expect(hits.get(`${method} ${path}`)).toBe(requests)
      expect(seen[0]).toBe('srv-1')
    },
  )

  it('a 2xx is data', async () => {
    const http = createHttpClient({ baseURL: base })
    await expect(http('/200/ok')).resolves.toEqual({ status: 200 })
  })
})
