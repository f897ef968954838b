/** Timing of the client runtime (docs/operations.md#deployments-and-version-skew), in one place. */

/** The page's own build manifest is fetched this long after the app became idle. */
export const BUILD_META_DELAY_MS = 1_000
/** Without requestIdleCallback, idle work gets a deadline budget of this much. */
export const IDLE_FALLBACK_BUDGET_MS = 50
/** `latest.json` is polled this often (first poll one interval after load). */
export const BUILD_POLL_INTERVAL_MS = 3_600_000
/** At most one reload per path within this window. */
export const RELOAD_GUARD_MS = 10_000
/** A lazy part shows its loading indicator only after this long. */
export const LOADING_INDICATOR_DELAY_MS = 200
/** A pointer resting this long on a link shows the intent to follow it (prefetch). */
export const PREFETCH_INTENT_DELAY_MS = 80
