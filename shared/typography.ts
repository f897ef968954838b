import type { PostProcessorModule } from 'i18next'

/**
 * Typography by rule: the no-break spaces each language's typesetting wants, put in when a
 * text is rendered (an i18next post-processor on the server and in the browser, so both write
 * the same HTML), never typed by translators. Only a plain space (U+0020) after a word ever
 * becomes a no-break space (U+00A0); nothing is added, removed or moved, so applying it twice
 * changes nothing. The rules (README, "Typography by rule"):
 *
 * - every language: a number and the unit or sign after it (`40 %`, `2,5 s`, `10 GB`), `§`,
 *   `§§` and the language's reference abbreviations before their number or letter (`Art. 6`,
 *   `lit. f`), and a space before an ellipsis (`Wird gesendet …`);
 * - English: `Art.`, `No.`, `p.`, `pp.`;
 * - German: `Abs.`, `Art.`, `Nr.`, `S.`, `Ziff.`, `lit.`; the units `Uhr`, `Tsd.`, `Mio.`,
 *   `Mrd.`; abbreviations of several letters (`z. B.`, `d. h.`, `i. d. R.`);
 * - Polish: `art.`, `ust.`, `pkt`, `nr`, `lit.`, `s.`; the units `zł`, `tys.`, `mln`, `mld`,
 *   `r.` (`2024 r.`); and the one-letter words `a i o u w z` bound to the next word.
 *
 * U+00A0 rather than the narrow U+202F that German typesetting prefers after `§` and inside
 * `z. B.`: it is what `Intl` writes between a number and its percent or euro sign (`99,9 %`), so typed
 * and formatted figures look alike, and every font and screen reader knows it.
 */
export const NBSP = '\u00A0'

const UNITS = '%|\\u20AC|\\$|£|[kMGT]B|[ckm]?m|kg|ms|s|min|h'
/** Per locale: units after a number, abbreviations before one, and its own patterns. */
const LOCALE_RULES: Record<string, [units: string, before: string, own?: string]> = {
  en: [UNITS, 'Art\\.|No\\.|pp?\\.'],
  de: [
    `${UNITS}|Uhr|Tsd\\.|Mio\\.|Mrd\\.`,
    'Abs\\.|Art\\.|Nr\\.|S\\.|Ziff\\.|lit\\.',
    '\\p{L}\\. (?=\\p{L}\\.)',
  ],
  pl: [
    `${UNITS}|zł|tys\\.|mln|mld|r\\.`,
    '[Aa]rt\\.|ust\\.|pkt|[Nn]r|lit\\.|s\\.',
    '[aiouwzAIOUWZ] (?=\\S)',
  ],
}

/** One pattern per locale; every match ends in the space to bind. */
const RULES = Object.fromEntries(
  Object.entries(LOCALE_RULES).map(([locale, [units, before, own]]) => [
    locale,
    new RegExp(
      [
        `\\d (?=(?:${units})(?![\\p{L}\\p{N}]))`,
        `(?:§§?|${before}) (?=\\p{N}|[a-z](?![\\p{L}\\p{N}]))`,
        ' (?=…)',
        ...(own ? [own] : []),
      ].join('|'),
      'gu',
    ),
  ]),
)

/** A word, path or address goes on before this character: no rule starts after it. */
const IN_WORD = /[\p{L}\p{N}\p{M}_.@/\\'’-]/u
/** Never typeset: URLs, e-mail addresses and placeholders i18next left in place. */
const PROTECTED = /[a-z][\w+.-]*:\/\/\S+|www\.\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\{\{.*?\}\}/giu

/**
 * `text` with the no-break spaces of `locale`'s typography. Where `keep` (values a caller
 * interpolated, such as a requested path) occur, the text stays as it is.
 */
export function typeset(text: string, locale: string, keep: readonly string[] = []): string {
  const rule = RULES[locale]
  if (!rule || !text.includes(' ')) return text
  const guarded = [...text.matchAll(PROTECTED)].map((m) => [m.index, m.index + m[0].length])
  for (const value of keep) {
    for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + 1)) {
      guarded.push([at, at + value.length])
    }
  }
  return text.replace(rule, (match: string, index: number) =>
    // A rule that starts with a letter or sign starts a word; a number's may not (`40 %`).
    (/^[^\d ]/.test(match) && IN_WORD.test(text[index - 1] ?? '')) ||
    guarded.some(([from = 0, to = 0]) => index < to && index + match.length > from)
      ? match
      : match.slice(0, -1) + NBSP,
  )
}

/**
 * `typeset` on every `t()` result (register with `.use()`, enable with `postProcess`). Values
 * the caller passed that hold a space stay as they are: they are data, not copy.
 */
export const typesetPostProcessor: PostProcessorModule = {
  type: 'postProcessor',
  name: 'typeset',
  process(value, _key, options, translator: { language?: string }) {
    const keep = Object.entries(options).flatMap(([name, option]) =>
      name !== 'defaultValue' && typeof option === 'string' && option.includes(' ') ? [option] : [],
    )
    return typeset(value, options.lng ?? translator.language ?? '', keep)
  },
}
