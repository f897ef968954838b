import { useI18n } from './texts.tsx'
import type { Page } from '#shared/pages.ts'
import { pageTexts, type PageTexts, type Translate } from '#shared/page-texts.ts'

/**
 * `t` for namespaced keys built at run time (`shared/page-texts.ts` builds them from the page
 * table; its test resolves each in every language, which the typed `t` cannot check).
 */
export function useTranslate(): Translate {
  const i18n = useI18n()
  return i18n.t.bind(i18n) as unknown as Translate
}

/** The texts that name `page`: title, description, badge, headline and crumb. */
export function usePageTexts(page: Page): PageTexts {
  return pageTexts(page, useTranslate())
}
