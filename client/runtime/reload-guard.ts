import { RELOAD_GUARD_KEY_PREFIX as KEY_PREFIX } from '#shared/browser-storage.ts'
import { resolveNavigation } from '#shared/navigation.ts'
import { RELOAD_GUARD_MS } from './constants.ts'

type GuardStorage = Pick<Storage, 'getItem' | 'setItem'>

/**
 * At most one reload per path within `RELOAD_GUARD_MS`, remembered in sessionStorage so it
 * survives the reload itself. Returns whether a reload may happen now (and records it).
 * Storage that throws (privacy modes, quota) is tolerated: then the page's own memory counts.
 */
export function createReloadGuard(storage: () => GuardStorage | null, now = () => Date.now()) {
  const memory = new Map<string, number>()
  return function mayReload(path: string): boolean {
    const key = `${KEY_PREFIX}${path}`
    let last = memory.get(key) ?? 0
    try {
      last = Math.max(last, Number(storage()?.getItem(key) ?? 0) || 0)
    } catch {
      // unreadable storage: the memory entry is all there is
    }
    if (now() - last < RELOAD_GUARD_MS) return false
    memory.set(key, now())
    try {
      storage()?.setItem(key, String(now()))
    } catch {
      // unwritable storage: tolerated
    }
    return true
  }
}

/** The browser's guard: sessionStorage, if the browser lets us use it. */
const mayReload = createReloadGuard(() =>
  typeof window === 'undefined' ? null : window.sessionStorage,
)

/**
 * Load `href` as a full page, unless that path was already reloaded moments ago. Only pages
 * of this site: the target passes the navigation guard, which refuses other origins and
 * script URLs with an error.
 */
export function reloadGuarded(href: string): boolean {
  const target = resolveNavigation(href, { origin: window.location.origin })
  if (target.kind !== 'internal') return false
  if (!mayReload(new URL(target.path, window.location.origin).pathname)) return false
  window.location.assign(target.path)
  return true
}
