import type { PostProcessorModule } from 'i18next'
import { LOCALE_INFO, LOCALES } from './locales.ts'

/**
 * Typography by rule: the no-break spaces and apostrophes each language's typesetting wants,
 * put in when a text is rendered (an i18next post-processor on the server and in the browser,
 * so both write the same HTML), never typed by translators. Only a plain space (U+0020) ever
 * becomes a no-break space (U+00A0) and only a straight apostrophe after a letter or digit
 * becomes the typographic one (U+2019); nothing is added, removed or moved, so applying it
 * twice changes nothing. The rules (docs/languages.md#languages):
 *
 * - every language: `don't`, `company's`, `days'` are written with ’; a number and the unit
 *   or sign after it (`40 %`, `2,5 s`, `10 GB`), `§`, `§§` and the language's reference
 *   abbreviations before their number or letter (`Art. 6`, `lit. f`), and a space before an
 *   ellipsis (`Wird gesendet …`) or a spaced dash (`ein Team – von …`), so neither starts a
 *   line;
 * - English: `Art.`, `no.`, `p.`, `pp.`, `section(s)`; a citation's parts are closed up
 *   (`Art. 6(1)(f)`, `section 25(2) no. 2`), so no space inside them needs binding
 *   (docs/decisions/english-legal-citations.md);
 * - German: `Abs.`, `Art.`, `Nr.`, `S.`, `Ziff.`, `lit.`; the units `Uhr`, `Tsd.`, `Mio.`,
 *   `Mrd.` and `f.`/`ff.` after a number (`Art. 44 ff.`); abbreviations of several letters
 *   (`z. B.`, `d. h.`, `i. d. R.`);
 * - Polish: `art.`, `ust.`, `pkt`, `nr`, `lit.`, `s.`; the units `zł`, `tys.`, `mln`, `mld`,
 *   `r.` (`2024 r.`); and the one-letter words `a i o u w z` bound to the next word.
 *
 * A language's own rules are part of its entry in the locale table (`LOCALE_INFO` in
 * shared/locales.ts), so a new language does not compile until it has them; its letters beyond
 * ASCII go into the font subset (scripts/lib/font-text.ts).
 *
 * U+00A0 rather than the narrow U+202F that German typesetting prefers after `§` and inside
 * `z. B.`: it is what `Intl` writes between a number and its percent or euro sign (`99,9 %`), so
 * typed and formatted figures look alike, and every font and screen reader knows it
 * (docs/decisions/no-break-spaces-by-rule-u00a0-everywhere.md).
 */
export const NBSP = '\u00A0'

const UNITS = '%|\\u20AC|\\$|£|[kMGT]B|[ckm]?m|kg|ms|s|min|h'

/** One pattern per locale; every match ends in the space to bind. */
const RULES = new Map<string, RegExp>(
  LOCALES.map((locale) => {
    const { units, before, own } = LOCALE_INFO[locale].typesetting
    return [
      locale,
      new RegExp(
        [
          `\\d (?=(?:${units ? `${UNITS}|${units}` : UNITS})(?![\\p{L}\\p{N}]))`,
          `(?:§§?|${before}) (?=\\p{N}|[a-z](?![\\p{L}\\p{N}]))`,
          ' (?=…|[–\\u2014] )',
          ...(own ? [own] : []),
        ].join('|'),
        'gu',
      ),
    ]
  }),
)

/** A straight apostrophe after a letter or digit: `don't`, `company's`, `days'`. */
const APOSTROPHE = /(?<=[\p{L}\p{N}])'/gu
const TYPOGRAPHIC_APOSTROPHE = '\u2019'

/** A word, path or address goes on before this character: no rule starts after it. */
const IN_WORD = /[\p{L}\p{N}\p{M}_.@/\\'’-]/u
/** Never typeset: URLs, e-mail addresses and placeholders i18next left in place. */
const PROTECTED = /[a-z][\w+.-]*:\/\/\S+|www\.\S+|[\w.+-]+@[\w-]+(?:\.[\w-]+)+|\{\{.*?\}\}/giu

/**
 * `text` with the no-break spaces of `locale`'s typography. Where `keep` (values a caller
 * interpolated, such as a requested path) occur, the text stays as it is.
 */
export function typeset(text: string, locale: string, keep: readonly string[] = []): string {
  const rule = RULES.get(locale)
  if (!rule || !(text.includes(' ') || text.includes("'"))) return text
  const guarded = [...text.matchAll(PROTECTED)].map((m) => [m.index, m.index + m[0].length])
  for (const value of keep) {
    for (let at = text.indexOf(value); at >= 0; at = text.indexOf(value, at + 1)) {
      guarded.push([at, at + value.length])
    }
  }
  const isGuarded = (index: number, length: number) =>
    guarded.some(([from = 0, to = 0]) => index < to && index + length > from)
  return text
    .replace(rule, (match: string, index: number) =>
      // A rule that starts with a letter or sign starts a word; a number's may not (`40 %`).
      (/^[^\d ]/.test(match) && IN_WORD.test(text[index - 1] ?? '')) ||
      isGuarded(index, match.length)
        ? match
        : match.slice(0, -1) + NBSP,
    )
    .replace(APOSTROPHE, (match: string, index: number) =>
      isGuarded(index, 1) ? match : TYPOGRAPHIC_APOSTROPHE,
    )
}

/**
 * `typeset` on every `t()` result (register with `.use()`, enable with `postProcess`). Values
 * the caller passed that hold a space or an apostrophe stay as they are: they are data, not
 * copy.
 */
export const typesetPostProcessor: PostProcessorModule = {
  type: 'postProcessor',
  name: 'typeset',
  process(value, _key, options, translator: { language?: string }) {
    const keep = Object.entries(options).flatMap(([name, option]) =>
      name !== 'defaultValue' && typeof option === 'string' && /[ ']/.test(option) ? [option] : [],
    )
    return typeset(value, options.lng ?? translator.language ?? '', keep)
  },
}
