// Which pages are legal texts: a module of its own, so the breadcrumbs and page titles every
// first view needs (shared/page-texts.ts) do not bring the legal texts' dated history with it.

/** The legal texts with a dated history. */
export type DatedLegalText = 'privacy' | 'terms' | 'cookies'

/**
 * The pages `LegalDocument` shows: the dated legal texts, the imprint and the accessibility
 * statement (screen = namespace).
 */
export type LegalText = DatedLegalText | 'imprint' | 'accessibility'
export const LEGAL_TEXTS: readonly LegalText[] = [
  'imprint',
  'terms',
  'privacy',
  'cookies',
  'accessibility',
]

/** Whether a page's screen is a legal text, shown by `LegalDocument`. */
export function isLegalText(screen: string): screen is LegalText {
  return (LEGAL_TEXTS as readonly string[]).includes(screen)
}
