import type {
  FastifyRateLimitOptions,
  FastifyRateLimitStore,
  FastifyRateLimitStoreCtor,
} from '@fastify/rate-limit'

type Counter = { count: number; endsAt: number; timer: NodeJS.Timeout }
type Result = { current: number; ttl: number }
type Callback = (error: Error | null, result?: Result) => void
/** What the plugin passes a store: its options, and the route's for a route's own store. */
type StoreOptions = FastifyRateLimitOptions & {
  continueExceeding?: boolean
  exponentialBackoff?: boolean
  routeInfo?: { method?: unknown; url?: unknown }
}

/**
 * The per-IP counters of the rate limits when there is no Redis: one replica, in memory.
 * `@fastify/rate-limit`'s own store keeps an address until 5,000 newer ones push it out; this
 * one forgets it when its window ends (privacy policy: "kept for the window, then deleted").
 * One unref'd timer per address and window, so a request costs a map lookup and the process
 * never waits for a timer to exit. Fixed windows only: `continueExceeding` and
 * `exponentialBackoff` would stretch a window beyond what the policy states, and are refused
 * (docs/decisions/rate-limit-addresses-forgotten-at-window-end.md).
 */
export class ExpiringRateLimitStore {
  /** Every route's counters, keyed `<route>\n<client key>`, oldest window first. */
  readonly #counters = new Map<string, Counter>()

  /** The store class to pass as the plugin's `store` option. */
  readonly Store: FastifyRateLimitStoreCtor

  /**
   * `maxEntries` bounds the memory a flood from many addresses can take: when it is reached,
   * the oldest window is forgotten early (never kept longer), as the plugin's own store does
   * with its 5,000 entries.
   */
  constructor(maxEntries = 50_000) {
    const counters = this.#counters
    class RouteStore implements FastifyRateLimitStore {
      readonly #scope: string

      constructor(options: StoreOptions) {
        if (options.continueExceeding || options.exponentialBackoff) {
          throw new Error('rate limits here use fixed windows (see ExpiringRateLimitStore)')
        }
        const route = options.routeInfo
        this.#scope = route ? `${String(route.method)} ${String(route.url)}` : '*'
      }

      incr(key: string, callback: Callback, timeWindow: number) {
        const id = `${this.#scope}\n${key}`
        const now = Date.now()
        let counter = counters.get(id)
        if (counter && counter.endsAt <= now) {
          // The timer is due but has not run yet (a busy event loop): a new window.
          clearTimeout(counter.timer)
          counter = undefined
        }
        if (!counter) {
          if (counters.size >= maxEntries) {
            const [oldestId, oldest] = counters.entries().next().value ?? []
            if (oldestId !== undefined && oldest) {
              clearTimeout(oldest.timer)
              counters.delete(oldestId)
            }
          }
          const timer = setTimeout(() => counters.delete(id), timeWindow)
          timer.unref()
          counter = { count: 0, endsAt: now + timeWindow, timer }
          counters.set(id, counter)
        }
        counter.count++
        callback(null, { current: counter.count, ttl: counter.endsAt - now })
      }

      read(key: string, callback: Callback) {
        const counter = counters.get(`${this.#scope}\n${key}`)
        const ttl = counter ? counter.endsAt - Date.now() : 0
        callback(
          null,
          counter && ttl > 0 ? { current: counter.count, ttl } : { current: 0, ttl: 0 },
        )
      }

      child(routeOptions: Parameters<FastifyRateLimitStore['child']>[0]) {
        return new RouteStore(routeOptions)
      }
    }
    this.Store = RouteStore
  }

  /** The client keys (addresses) currently held, for every route. */
  keys(): string[] {
    return [...this.#counters.keys()].map((id) => id.slice(id.indexOf('\n') + 1))
  }

  /** Drops every counter and its timer (the app's `onClose`). */
  clear() {
    for (const counter of this.#counters.values()) clearTimeout(counter.timer)
    this.#counters.clear()
  }
}
