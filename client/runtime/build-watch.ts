import {
  BUILD_META_DELAY_MS,
  BUILD_POLL_INTERVAL_MS,
  IDLE_FALLBACK_BUDGET_MS,
} from './constants.ts'

export type BuildInfo = { id: string; timestamp: number }

type Timers = {
  setTimeout: (callback: () => void, ms: number) => unknown
  setInterval: (callback: () => void, ms: number) => unknown
  requestIdleCallback?: (callback: () => void) => unknown
}

export type BuildWatchOptions = {
  /** The build this page came from. */
  own: BuildInfo
  /** GET `builds/meta/{id}.json`: rejects (404) when the server no longer has this build. */
  fetchMeta: (id: string) => Promise<unknown>
  /** GET `builds/latest.json?{timestamp}`. */
  fetchLatest: (timestamp: number) => Promise<BuildInfo>
  onOutdated: (latestId: string | null) => void
  intervalMs?: number
  timers?: Timers
}

/** requestIdleCallback, or a stand-in that runs soon with a small deadline budget. */
function whenIdle(timers: Timers, callback: () => void) {
  if (timers.requestIdleCallback) timers.requestIdleCallback(callback)
  else timers.setTimeout(callback, IDLE_FALLBACK_BUDGET_MS)
}

/**
 * New-build detection (docs/operations.md#deployments-and-version-skew): the page's own build
 * manifest 1 s after the app is idle, then `latest.json` every interval (the first poll one
 * interval after load). Network errors are silent; a difference is reported once.
 */
export function startBuildWatch(options: BuildWatchOptions) {
  const timers: Timers = options.timers ?? {
    setTimeout: (callback, ms) => window.setTimeout(callback, ms),
    setInterval: (callback, ms) => window.setInterval(callback, ms),
    requestIdleCallback:
      typeof window.requestIdleCallback === 'function'
        ? (callback) => window.requestIdleCallback(callback)
        : undefined,
  }
  let isOutdated = false
  const outdated = (latestId: string | null) => {
    if (isOutdated) return
    isOutdated = true
    options.onOutdated(latestId)
  }

  whenIdle(timers, () => {
    timers.setTimeout(() => {
      options.fetchMeta(options.own.id).catch((error: unknown) => {
        // 404: this build is gone from the server; anything else (offline) stays silent.
        if (isNotFound(error)) outdated(null)
      })
    }, BUILD_META_DELAY_MS)
  })

  timers.setInterval(() => {
    options
      .fetchLatest(Date.now())
      .then((latest) => {
        if (latest.id !== options.own.id) outdated(latest.id)
      })
      .catch(() => {})
  }, options.intervalMs ?? BUILD_POLL_INTERVAL_MS)

  return {
    /** Another response of ours named its build (`X-Build-Id`). */
    sawBuildId(id: string) {
      if (id !== options.own.id) outdated(id)
    },
    get isOutdated() {
      return isOutdated
    },
  }
}

function isNotFound(error: unknown): boolean {
  return (
    typeof error === 'object' &&
    error !== null &&
    'status' in error &&
    (error as { status?: number }).status === 404
  )
}
