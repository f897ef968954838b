import { createHmac, randomBytes } from 'node:crypto'
import { Gauge, type Registry } from 'prom-client'

/**
 * How many different clients did something within a window (helm/README.md, the alerts): an
 * alert that counts sources, not events, cannot be fired by one client forging reports or
 * posts. Each client address is held only in memory, as a keyed checksum under a key made at
 * start and never written anywhere, and forgotten when the window has passed (the privacy
 * policy states both windows). Bounded: a flood from many addresses holds at most `maxSources`
 * of them, the oldest going first, which can only make the count lower than the truth.
 */
export class DistinctSources {
  readonly #key = randomBytes(32)
  /** Checksum → when it was last seen (epoch ms); a Map keeps insertion order, oldest first. */
  readonly #seen = new Map<string, number>()
  readonly #windowMs: number
  readonly #maxSources: number

  constructor(windowMs: number, maxSources = 10_000) {
    this.#windowMs = windowMs
    this.#maxSources = maxSources
  }

  /** Notes a client address as seen now. */
  add(address: string, now = Date.now()): void {
    const source = createHmac('sha256', this.#key).update(address).digest('base64url')
    this.#seen.delete(source)
    this.#seen.set(source, now)
    if (this.#seen.size > this.#maxSources) {
      const oldest = this.#seen.keys().next().value
      if (oldest !== undefined) this.#seen.delete(oldest)
    }
  }

  /** The different addresses seen within the window up to `now`; older ones are forgotten. */
  count(now = Date.now()): number {
    for (const [source, seenAt] of this.#seen) {
      if (now - seenAt < this.#windowMs) break
      this.#seen.delete(source)
    }
    return this.#seen.size
  }
}

/** Different sources within `windowMs`, exposed as a gauge read at each scrape. */
export function distinctSourcesGauge(
  registry: Registry,
  gauge: { name: string; help: string; windowMs: number },
): DistinctSources {
  const sources = new DistinctSources(gauge.windowMs)
  new Gauge({
    name: gauge.name,
    help: gauge.help,
    registers: [registry],
    collect() {
      this.set(sources.count())
    },
  })
  return sources
}
