import { createContext, use, useMemo, useSyncExternalStore, type ReactNode } from 'react'
import type { i18n as I18n, TFunction } from 'i18next'
import type { Namespace } from '#shared/texts.ts'

/**
 * i18next in React: the page's instance for every component below the provider, on the server
 * and in the browser alike, and `useTranslation(ns)` with react-i18next's shape for what the
 * site uses of it (`t` over namespaces, a new render when texts arrive). A thin hook instead of
 * react-i18next, which would add its weight to every first view for features the site does not
 * use (docs/decisions/i18next-is-the-one-translation-engine.md). `t` is i18next's `TFunction`,
 * typed over the English files (shared/texts.ts), so a wrong key or a wrong `returnObjects` shape
 * fails the type check.
 */

const I18nContext = createContext<I18n | null>(null)

export function I18nProvider({ i18n, children }: { i18n: I18n; children: ReactNode }) {
  return <I18nContext value={i18n}>{children}</I18nContext>
}

export function useI18n(): I18n {
  const i18n = use(I18nContext)
  if (!i18n) throw new Error('useTranslation needs an I18nProvider above it')
  return i18n
}

/** Counts changes of an instance's texts (bundles added or removed), for React to subscribe to. */
type Store = { version: number; subscribe: (listener: () => void) => () => void }
const stores = new WeakMap<I18n, Store>()

function storeOf(i18n: I18n): Store {
  const known = stores.get(i18n)
  if (known) return known
  const listeners = new Set<() => void>()
  const store: Store = {
    version: 0,
    subscribe(listener) {
      listeners.add(listener)
      return () => listeners.delete(listener)
    },
  }
  const changed = () => {
    store.version += 1
    for (const listener of listeners) listener()
  }
  // Lazily loaded pages and development edits add bundles; an edit removes the old one first.
  i18n.store.on('added', changed)
  i18n.store.on('removed', changed)
  stores.set(i18n, store)
  return store
}

type Namespaces = Namespace | readonly Namespace[]

/**
 * `t` over `namespaces` (searched in order; `ns:key` reaches any other), `common` by default.
 * A component renders again when texts are added or replaced.
 */
export function useTranslation<const N extends Namespaces = 'common'>(
  namespaces?: N,
): { t: TFunction<N extends readonly Namespace[] ? [...N] : N> } {
  const i18n = useI18n()
  const store = storeOf(i18n)
  const version = useSyncExternalStore(
    store.subscribe,
    () => store.version,
    () => store.version,
  )
  const list: Namespaces = namespaces ?? 'common'
  const key = typeof list === 'string' ? list : list.join(' ')
  const t = useMemo(
    () => i18n.getFixedT(null, typeof list === 'string' ? list : [...list]),
    // `key` stands for `namespaces` (a new array on every render); `version` for new texts.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [i18n, key, version],
  )
  return { t: t as unknown as TFunction<N extends readonly Namespace[] ? [...N] : N> }
}
