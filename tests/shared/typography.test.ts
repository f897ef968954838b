import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import fc from 'fast-check'
import i18next from 'i18next'
import { describe, expect, it } from 'vitest'
import { LOCALES } from '#shared/locales.ts'
import { I18N_BASE_OPTIONS } from '#shared/texts.ts'
import { NBSP, typeset, typesetPostProcessor } from '#shared/typography.ts'

/** `_` stands for a no-break space in the expectations, so they stay readable. */
const nb = (text: string) => text.replaceAll('_', NBSP)

describe('typeset', () => {
  it.each([
    // German: number and unit, §/Abs./Art./Nr./S. before the number, z. B.
    ['de', 'um 40 % gesunken', 'um 40_% gesunken'],
    ['de', 'in 2,5 s, 10 GB und 5 ms', 'in 2,5_s, 10_GB und 5_ms'],
    ['de', 'von 9:00 bis 18:00 Uhr', 'von 9:00 bis 18:00_Uhr'],
    ['de', 'bis 20 Mio. Euro oder 40 €', 'bis 20_Mio. Euro oder 40_€'],
    ['de', '§ 25 Abs. 2 Nr. 2 TDDDG', '§_25 Abs._2 Nr._2 TDDDG'],
    ['de', 'Art. 6 Abs. 1 lit. f DSGVO', 'Art._6 Abs._1 lit._f DSGVO'],
    ['de', 'nach §§ 8 bis 10 DDG, S. 12', 'nach §§_8 bis 10 DDG, S._12'],
    ['de', 'z. B. Shops, d. h. alle, i. d. R. nie', 'z._B. Shops, d._h. alle, i._d._R. nie'],
    ['de', 'Wird gesendet …', 'Wird gesendet_…'],
    // German leaves words alone: no unit, no abbreviation.
    ['de', 'nach 14 Tagen in 4 Stunden', 'nach 14 Tagen in 4 Stunden'],
    ['de', 'Ein Satz, in dem a und i Wörter sind', 'Ein Satz, in dem a und i Wörter sind'],
    // Polish: one-letter words, in a row too, and after a tag or bracket.
    ['pl', 'w domu i w pracy', 'w_domu i_w_pracy'],
    ['pl', 'A to jest (z nami) o tym, u nas', 'A_to jest (z_nami) o_tym, u_nas'],
    [
      'pl',
      'Obowiązuje <privacyLink>politykę</privacyLink> i regulamin',
      'Obowiązuje <privacyLink>politykę</privacyLink> i_regulamin',
    ],
    [
      'pl',
      'ustawa z 26 kwietnia 2024 r. o dostępności',
      'ustawa z_26 kwietnia 2024_r. o_dostępności',
    ],
    [
      'pl',
      'art. 6 ust. 1 lit. f RODO, § 288 ust. 2 pkt 5',
      'art._6 ust._1 lit._f RODO, §_288 ust._2 pkt_5',
    ],
    ['pl', 'do 20 mln euro lub 4 %', 'do 20_mln euro lub 4_%'],
    ['pl', 'Wysyłanie …', 'Wysyłanie_…'],
    // Polish leaves letters inside words, abbreviations and addresses alone.
    ['pl', 'kawa, m.in. sklepy, IT-w ogóle', 'kawa, m.in. sklepy, IT-w ogóle'],
    ['pl', 'Strona /pl/a b nie istnieje', 'Strona /pl/a b nie istnieje'],
    // English: § and references, number and unit; one-letter words stay free.
    [
      'en',
      'pursuant to § 5 DDG and Art. 28 GDPR, No. 2',
      'pursuant to §_5 DDG and Art._28 GDPR, No._2',
    ],
    ['en', 'within 2.5 s, 10 GB, 99.9 %', 'within 2.5_s, 10_GB, 99.9_%'],
    ['en', 'I am a person, a 30-minute call', 'I am a person, a 30-minute call'],
    // English: "section" like §; a citation's parts are closed up, "no." binds its number.
    ['en', 'under section 5 DDG and sections 8 to 10', 'under section_5 DDG and sections_8 to 10'],
    [
      'en',
      'Art. 6(1)(f) GDPR and section 25(2) no. 2 TDDDG',
      'Art._6(1)(f) GDPR and section_25(2) no._2 TDDDG',
    ],
    // German: f. and ff. stay with their number.
    ['de', 'unter Einhaltung der Art. 44 ff. DSGVO', 'unter Einhaltung der Art._44_ff. DSGVO'],
    // Apostrophes after a letter or digit are typographic; quotes and code are not touched.
    [
      'en',
      "Let's talk about your company's 30 days' notice",
      'Let’s talk about your company’s 30 days’ notice',
    ],
    ['en', "the '90s and 'quotes'", "the '90s and 'quotes’"],
    ['de', "Wie geht's?", 'Wie geht’s?'],
    // A spaced dash never starts a line; a hyphen or a range dash is left alone.
    ['pl', 'Jeden zespół – od pierwszej analizy', 'Jeden zespół_– od pierwszej analizy'],
    ['de', 'Mo–Fr, Hin- und Herschieben', 'Mo–Fr, Hin- und Herschieben'],
  ])('%s: %s', (locale, text, expected) => {
    expect(typeset(text, locale)).toBe(nb(expected))
  })

  it('leaves URLs, e-mail addresses, placeholders and values to keep as they are', () => {
    expect(typeset("see https://example.com/it's and {{name's}}", 'en')).toBe(
      "see https://example.com/it's and {{name's}}",
    )
    expect(typeset("Not found: /it's here", 'en', ["/it's here"])).toBe("Not found: /it's here")
    expect(typeset('Napisz na a@w.pl w sprawie', 'pl')).toBe(nb('Napisz na a@w.pl w_sprawie'))
    expect(typeset('Zobacz https://example.com/a i b', 'pl')).toBe(
      nb('Zobacz https://example.com/a i_b'),
    )
    expect(typeset('Zostało {{count, number}} z 10', 'pl')).toBe(
      nb('Zostało {{count, number}} z_10'),
    )
    expect(typeset('Nie ma: /pl/x w y, a tak', 'pl', ['/pl/x w y'])).toBe(
      nb('Nie ma: /pl/x w y, a_tak'),
    )
  })

  it('leaves unknown locales and texts without spaces alone', () => {
    expect(typeset('w domu', 'fr')).toBe('w domu')
    expect(typeset('40%', 'de')).toBe('40%')
  })

  const token = fc.constantFrom(
    ...['w', 'i', 'A', 'z.', 'B.', '§', '§§', 'Art.', 'art.', 'Abs.', 'ust.', 'lit.', 'f', 'Nr.'],
    ...['5', '40', '2,5', '%', '€', 'Mio.', 'mln', 'r.', 'Uhr', 's', 'GB', '…', 'domu', 'Tage'],
    ...[
      'a@w.pl',
      'https://x.de/w',
      '{{x}}',
      '/pl/a',
      '-',
      '–',
      '(',
      '.',
      ',',
      'M',
      "'",
      "it's",
      '’',
    ],
  )
  const separator = fc.constantFrom(' ', ' ', ' ', NBSP, '', '  ')
  const text = fc
    .array(fc.tuple(token, separator), { maxLength: 12 })
    .map((parts) => parts.flat().join(''))

  it.each(LOCALES)(
    'in %s, only binds spaces, curls apostrophes and changes nothing the second time',
    (locale) => {
      fc.assert(
        fc.property(text, (input) => {
          const once = typeset(input, locale)
          expect(typeset(once, locale)).toBe(once)
          expect(once.length).toBe(input.length)
          for (let index = 0; index < input.length; index++) {
            if (once[index] !== input[index]) {
              expect([
                [' ', NBSP],
                ["'", '’'],
              ]).toContainEqual([input[index], once[index]])
            }
          }
        }),
        { numRuns: 2000 },
      )
    },
  )
})

describe('the typeset post-processor', () => {
  const NAMESPACES = ['common', 'service-cloud-infrastructure', 'service-managed-it'] as const
  const read = (locale: string, ns: string) =>
    JSON.parse(
      readFileSync(join(import.meta.dirname, '../../locales', locale, `${ns}.json`), 'utf8'),
    ) as Record<string, unknown>
  const i18n = i18next.createInstance()
  void i18n.use(typesetPostProcessor).init({
    ...I18N_BASE_OPTIONS,
    ns: [...NAMESPACES],
    resources: Object.fromEntries(
      LOCALES.map((locale) => [
        locale,
        Object.fromEntries(NAMESPACES.map((ns) => [ns, read(locale, ns)])),
      ]),
    ),
  })

  it('typesets what t() returns, with the figures Intl wrote in the language', () => {
    const uptime = (locale: string) =>
      i18n.getFixedT(locale, 'service-cloud-infrastructure')('benefits.items', {
        returnObjects: true,
      })[2]?.text
    expect(uptime('en')).toContain('99.9% uptime')
    expect(uptime('de')).toContain(nb('von 99,9_% ab'))
    expect(uptime('pl')).toContain('99,9%')
    expect(uptime('pl')).toContain(nb('i_całodobowy'))
  })

  it('typesets every text of a returned list', () => {
    const features = i18n.getFixedT('de', 'service-managed-it')('tiers.items.base.features', {
      returnObjects: true,
    })
    expect(features[0]).toBe(nb('Support Mo–Fr von 09:00 bis 18:00_Uhr deutscher Zeit'))
  })

  it('keeps the values a caller passes as they are', () => {
    const t = i18n.getFixedT('pl', 'common')
    expect(t('errors.notFoundMessage', { path: '/pl/a w b' })).toBe(
      'Nie znaleziono strony: /pl/a w b',
    )
    expect(t('errors.notFoundMessage', { path: "/pl/it's" })).toBe(
      "Nie znaleziono strony: /pl/it's",
    )
  })
})
