import { createContext, use, useMemo, useSyncExternalStore, type ReactNode } from 'react'
import type { TFunction } from 'i18next'
import type { Namespace } from '#shared/texts.ts'
import type { LocaleTexts } from '#shared/translator.ts'

/**
 * Texts in React: the page's `LocaleTexts` (shared/translator.ts) for every component below the
 * provider, on the server and in the browser alike. `t` is typed by i18next's `TFunction` over
 * the English files (shared/texts.ts), so a wrong key or a missing value fails the type check;
 * i18next itself is never loaded.
 */

const TextsContext = createContext<LocaleTexts | null>(null)

export function TextsProvider({ texts, children }: { texts: LocaleTexts; children: ReactNode }) {
  return <TextsContext value={texts}>{children}</TextsContext>
}

export function useLocaleTexts(): LocaleTexts {
  const texts = use(TextsContext)
  if (!texts) throw new Error('useTranslation needs a TextsProvider above it')
  return texts
}

type Namespaces = Namespace | readonly Namespace[]

/**
 * `t` over `namespaces` (searched in order; `ns:key` reaches any other), `common` by default.
 * A component renders again when texts are replaced (an edited file while developing).
 */
export function useTranslation<const N extends Namespaces = 'common'>(
  namespaces?: N,
): { t: TFunction<N extends readonly Namespace[] ? [...N] : N> } {
  const texts = useLocaleTexts()
  const version = useSyncExternalStore(texts.subscribe, texts.version, texts.version)
  const list: Namespaces = namespaces ?? 'common'
  const key = typeof list === 'string' ? list : list.join(' ')
  const t = useMemo(
    () => texts.lookup(list),
    // `key` stands for `namespaces` (a new array on every render); `version` for new texts.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [texts, key, version],
  )
  return { t: t as unknown as TFunction<N extends readonly Namespace[] ? [...N] : N> }
}
