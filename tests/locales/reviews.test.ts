import { mkdtempSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { LOCALES } from '#shared/locales.ts'
import {
  localeTexts,
  pendingTexts,
  reviewFileProblems,
  textChecksum,
  textReviews,
} from '#scripts/lib/text-reviews.ts'

/**
 * No text ships unread (docs/translating.md#every-text-read-by-a-native-editor): each string of
 * each language is named, with the checksum of its words, by a review a native editor of that
 * language wrote, and each review has its report. A string edited after its review fails here
 * until it is read again.
 */
const reviews = textReviews()

describe('every text read by a native editor of its language', () => {
  it.each(LOCALES)('%s: every string as it is now was read', (locale) => {
    const pending = pendingTexts(locale, localeTexts(locale), reviews)
    const shown = pending.slice(0, 15).map(({ key, lastReview }) => {
      return `  ${key} (${lastReview ? `changed since ${lastReview}` : 'never read'})`
    })
    expect(
      pending.map(({ key }) => key),
      `${pending.length} ${locale} strings no native editor has read as they are now:\n` +
        `${shown.join('\n')}${pending.length > 15 ? '\n  …' : ''}\n` +
        'List them with `npm run i18n:review`; after the reading, record it with ' +
        '`npm run i18n:review -- --record <locale> …` and write its report.',
    ).toEqual([])
  })

  it('every review has its report, which says what was changed in each string it fixed', () => {
    expect(reviewFileProblems(reviews)).toEqual([])
  })

  it('a string edited after its review, or never read, is pending; a fix without a report word fails', () => {
    const dir = mkdtempSync(join(tmpdir(), 'text-reviews-'))
    const read = { 'home:hero.title': 'One partner', 'home:hero.subtitle': 'From the start' }
    writeFileSync(
      join(dir, '2026-11-29-en.json'),
      JSON.stringify({
        date: '2026-11-29',
        locale: 'en',
        reader: 'Native editor',
        scope: 'The home page',
        strings: Object.fromEntries(Object.entries(read).map(([k, v]) => [k, textChecksum(v)])),
        fixed: ['home:hero.subtitle'],
      }),
    )
    const [review] = textReviews(dir)
    expect(review?.id).toBe('2026-11-29-en')
    const now = new Map([
      ['home:hero.title', 'One partner'],
      ['home:hero.subtitle', 'From the very start'],
      ['home:cta.title', 'Talk to us'],
    ])
    expect(pendingTexts('en', now, textReviews(dir))).toEqual([
      { key: 'home:hero.subtitle', text: 'From the very start', lastReview: '2026-11-29-en' },
      { key: 'home:cta.title', text: 'Talk to us' },
    ])
    // The German texts are not read by an English review.
    expect(
      pendingTexts('de', new Map([['home:hero.title', 'One partner']]), textReviews(dir)),
    ).toHaveLength(1)
    expect(reviewFileProblems(textReviews(dir), dir)).toEqual([
      '2026-11-29-en.json has no report, docs/translating/reviews/2026-11-29-en.md',
    ])
    writeFileSync(join(dir, '2026-11-29-en.md'), '# Review\n\nRead the hero.\n')
    expect(reviewFileProblems(textReviews(dir), dir)).toEqual([
      '2026-11-29-en.md does not say what was changed in home:hero.subtitle, which 2026-11-29-en.json lists as fixed',
    ])
  })

  it('a review file that names another day or language than its name is refused', () => {
    const dir = mkdtempSync(join(tmpdir(), 'text-reviews-'))
    const review = { date: '2026-11-28', locale: 'de', reader: 'x', scope: 'y', strings: {} }
    writeFileSync(join(dir, '2026-11-29-de.json'), JSON.stringify(review))
    expect(() => textReviews(dir)).toThrow(/"date" is not 2026-11-29/)
  })
})
