/**
 * Pseudo-localisation for development (docs/languages.md#languages): English made longer and
 * accented, between markers, so a page shows at a glance which words do not come from the
 * locale files (no markers) and where a layout breaks with longer words. `PSEUDO_LOCALE=1`
 * puts it in place of the English texts; the server refuses it in production.
 */

export const PSEUDO_START = '⟦'
export const PSEUDO_END = '⟧'

/** Accented letters from the fonts' Latin and Polish subsets, so the page keeps its font. */
const ACCENTED: Readonly<Record<string, string>> = {
  a: 'á',
  c: 'ç',
  e: 'é',
  i: 'í',
  l: 'ł',
  n: 'ñ',
  o: 'ö',
  s: 'ś',
  u: 'ü',
  y: 'ý',
  z: 'ź',
  A: 'Á',
  C: 'Ç',
  E: 'É',
  I: 'Í',
  L: 'Ł',
  N: 'Ñ',
  O: 'Ö',
  S: 'Ś',
  U: 'Ü',
  Y: 'Ý',
  Z: 'Ź',
}

/** Doubled, these make a text about a third longer, as German and Polish often are. */
const VOWELS = /[aeiouAEIOU]/

/** What must reach i18next unchanged: placeholders, tags, nesting. */
const PROTECTED = /(\{\{[^}]*\}\}|<\/?[A-Za-z][\w-]*\s*\/?>|\$t\([^)]*\))/

function stretch(part: string): string {
  let result = ''
  for (const character of part) {
    const accented = ACCENTED[character] ?? character
    result += VOWELS.test(character) ? accented + accented : accented
  }
  return result
}

/** One text, pseudo-localised: `Send {{count}} <b>now</b>` → `⟦Śéénd {{count}} <b>ñööw</b>⟧`. */
export function pseudoLocalize(text: string): string {
  const parts = text.split(PROTECTED)
  // Odd indices are the protected parts `split` kept.
  return PSEUDO_START + parts.map((part, i) => (i % 2 ? part : stretch(part))).join('') + PSEUDO_END
}

/** Every text of a locale file's tree pseudo-localised, the tree's shape kept. */
export function pseudoLocalizeTree<T>(tree: T): T {
  if (typeof tree === 'string') return pseudoLocalize(tree) as T
  if (Array.isArray(tree)) return tree.map((item: unknown) => pseudoLocalizeTree(item)) as T
  if (tree !== null && typeof tree === 'object') {
    return Object.fromEntries(
      Object.entries(tree).map(([key, value]) => [key, pseudoLocalizeTree(value)]),
    ) as T
  }
  return tree
}
