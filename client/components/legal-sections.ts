import type { LegalSection } from './legal-document.tsx'

type SectionTexts = {
  heading: string
  paragraphs: readonly string[]
  items?: readonly string[]
}

/**
 * A legal page's sections in the order of its list in `shared/legal.ts`, each from its texts
 * (`sections.<id>`: heading, paragraphs, and list items where the text has them); `numbered`
 * of them get their number in the heading.
 */
export function legalSections<Id extends string>(
  ids: readonly Id[],
  texts: (id: Id) => SectionTexts,
  numbered = 0,
): LegalSection[] {
  return ids.map((id, index) => ({
    id,
    ...texts(id),
    ...(index < numbered ? { number: index + 1 } : {}),
  }))
}
