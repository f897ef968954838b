import { describe, expect, it } from 'vitest'
import { LOCALES, type Locale } from '#shared/locales.ts'
import { get, localeStrings, texts } from '#tests/helpers/locales.ts'
import { type PerLanguage, unwritten, written } from '#tests/helpers/per-language.ts'

/**
 * The law the legal texts cite is the law in force: the review of 2026-11-25 found repealed
 * acts, a liability paragraph citing the wrong sections and an outdated retention period.
 */

/** Repealed or replaced: TMG and TTDSG (by DDG and TDDDG, May 2024), the EU ODR platform (July 2025). */
const OUTDATED =
  /\bTMG\b|Telemediengesetz|\bTTDSG\b|\bODR\b|OS-Plattform|Online-Streitbeilegung|ec\.europa\.eu\/consumers\/odr/

describe('legal citations', () => {
  it.each(LOCALES)('%s cites no repealed law', (locale) => {
    for (const [key, text] of localeStrings(locale)) expect(text, key).not.toMatch(OUTDATED)
  })

  it.each(LOCALES)(
    '%s: no general monitoring duty is Art. 8 DSA, not §§ 7–10 DDG',
    (locale: Locale) => {
      const paragraph = String(
        get(texts(locale, 'imprint'), 'sections.liabilityContent.paragraphs.0'),
      )
      expect(paragraph).toContain('2022/2065')
      for (const [key, text] of localeStrings(locale)) {
        expect(text, key).not.toMatch(/§§? ?(7|8|9|10)\b[^.;]*\bDDG\b/)
      }
    },
  )

  /** Article 8 of the DSA as each language cites an article of an EU regulation. */
  const ARTICLE_8: PerLanguage<RegExp> = {
    en: /\bArticle 8\b/,
    de: /\bArt\. 8\b/,
    pl: /\bart\. 8\b/,
  }

  it.each(written(ARTICLE_8))('%s cites Article 8 DSA as its readers write it', (locale, cited) => {
    const paragraph = String(
      get(texts(locale, 'imprint'), 'sections.liabilityContent.paragraphs.0'),
    )
    expect(paragraph.replaceAll('\u00a0', ' ')).toMatch(cited)
  })
  it.skip.each(unwritten(ARTICLE_8))('%s: add how it cites an article to ARTICLE_8', () => {})

  // docs/decisions/english-legal-citations.md: one notation, as English legal writing has it.
  it('en cites law as English legal writing does: Art. 6(1)(f), section 25(2) no. 2, no §', () => {
    for (const [key, raw] of localeStrings('en')) {
      const text = raw.replaceAll('\u00a0', ' ')
      expect(text, key).not.toContain('§')
      expect(text, key).not.toMatch(/\b(?:Art\.|[Ss]ections?) \d+[a-z]?(?:\(\w+\))* \(\w{1,3}\)/)
      expect(text, key).not.toMatch(/\b[Ss]ection \d+[a-z]?(?:\(\w+\))* No\. \d/)
    }
  })

  /** § 147 AO and § 257 HGB since 1 January 2025: letters six, vouchers eight, books ten years. */
  const PERIODS: PerLanguage<[RegExp, RegExp, RegExp]> = {
    en: [/correspondence[^;]*\bsix years/, /vouchers[^;]*\beight years/, /books[^;]*\bten years/],
    de: [
      /Geschäftsbriefe[^;]*\bsechs Jahre/,
      /Buchungsbelege[^;]*\bacht Jahre/,
      /Handelsbücher[^;]*\bzehn Jahre/,
    ],
    pl: [
      /korespondencję[^;]*\bsześć lat/,
      /dowody księgowe[^;]*\bosiem lat/,
      /księgi[^;]*\bdziesięć lat/u,
    ],
  }

  it.each(written(PERIODS))(
    '%s states the statutory retention periods in force',
    (locale, periods) => {
      const text = String(get(texts(locale, 'privacy'), 'sections.retention.paragraphs.1'))
      for (const period of periods) expect(text).toMatch(period)
    },
  )
  it.skip.each(unwritten(PERIODS))('%s: add its phrasing of the periods to PERIODS', () => {})
})
