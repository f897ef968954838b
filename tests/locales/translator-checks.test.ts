// The checks translators need most, on every locale file, and each shown failing on a broken
// example made from the real files: a Polish plural form missing, a placeholder or a tag
// dropped, a button too long. Placeholders, tags and plural forms are checked on every file in
// parity.test.ts with the same functions (tests/helpers/locale-checks.ts).
import { describe, expect, it } from 'vitest'
import { LOCALES } from '#shared/locales.ts'
import { FILE_NAMESPACES } from '#shared/namespaces.ts'
import { TEXT_LIMITS } from '#shared/text-limits.ts'
import {
  flatten,
  lengthProblems,
  markerProblems,
  pluralProblems,
  unmatchedLimits,
} from '#tests/helpers/locale-checks.ts'
import { texts } from '#tests/helpers/locales.ts'

const file = (locale: (typeof LOCALES)[number], ns: string) => flatten(texts(locale, ns))

/** The file with one text changed (or removed, for `undefined`). */
function edited(entries: Map<string, string>, key: string, text: string | undefined) {
  const copy = new Map(entries)
  expect(copy.has(key), `${key} exists to be broken`).toBe(true)
  if (text === undefined) copy.delete(key)
  else copy.set(key, text)
  return copy
}

describe('length limits (shared/text-limits.ts)', () => {
  for (const locale of LOCALES) {
    it(`${locale}: no text is longer than its place allows`, () => {
      const problems = FILE_NAMESPACES.flatMap((ns) =>
        lengthProblems(file(locale, ns), ns, TEXT_LIMITS),
      )
      expect(problems).toEqual([])
    })
  }

  it('name texts that exist', () => {
    const ids = FILE_NAMESPACES.flatMap((ns) => [...file('en', ns).keys()].map((k) => `${ns}:${k}`))
    expect(unmatchedLimits(ids, TEXT_LIMITS)).toEqual([])
  })
})

describe('each check fails on a broken example', () => {
  it('a Polish text without its "few" form', () => {
    const polish = file('pl', 'common')
    expect(pluralProblems(polish, 'pl')).toEqual([])
    const broken = edited(polish, 'legal.periods.days_few', undefined)
    expect(pluralProblems(broken, 'pl')).toEqual(['legal.periods.days_few is missing'])
    // English needs no "few": the same file shape passes there.
    expect(
      pluralProblems(edited(file('en', 'common'), 'legal.periods.days_one', undefined), 'en'),
    ).toEqual(['legal.periods.days_one is missing'])
  })

  it('a placeholder dropped in German', () => {
    const english = file('en', 'common')
    const german = file('de', 'common')
    expect(markerProblems(english, german)).toEqual([])
    const broken = edited(
      german,
      'footer.rights',
      '© {{year}} Modernwerk. Alle Rechte vorbehalten.',
    )
    expect(markerProblems(english, broken)).toEqual([
      'footer.rights: has {{year}}, English has {{company}} {{year}}',
    ])
  })

  it('a tag dropped in Polish', () => {
    const english = file('en', 'common')
    const polish = file('pl', 'common')
    const notice = polish.get('form.privacyNotice') ?? ''
    const broken = edited(polish, 'form.privacyNotice', notice.replace(/<\/?privacyLink>/g, ''))
    expect(markerProblems(english, broken)).toEqual([
      'form.privacyNotice: has none, English has </privacyLink> <privacyLink>',
    ])
  })

  it('a button too long for its place', () => {
    const german = file('de', 'common')
    expect(lengthProblems(german, 'common', TEXT_LIMITS)).toEqual([])
    const broken = edited(german, 'form.submit', 'Ihre Nachricht jetzt an uns senden')
    expect(lengthProblems(broken, 'common', TEXT_LIMITS)).toEqual([
      'common:form.submit: 34 characters, at most 24 in the contact form’s button: “Ihre Nachricht jetzt an uns senden”',
    ])
  })

  it('a limit whose text was renamed', () => {
    const ids = ['common:nav.home', 'common:form.submitButton']
    const limits = [{ keys: ['common:nav.home', 'common:form.submit'], max: 20 }]
    expect(unmatchedLimits(ids, limits)).toEqual(['common:form.submit'])
  })
})
