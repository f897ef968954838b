import { describe, expect, it } from 'vitest'
import { localeStrings } from '#tests/helpers/locales.ts'

/**
 * The Polish texts address the reader formally ("Państwo"): no second person singular
 * anywhere. Calls to action are noun labels ("Bezpłatna konsultacja"); only the labels of
 * controls that operate the page itself may be imperatives, as on Polish government and bank
 * sites (docs/languages.md#languages). Pronouns and possessives are never allowed, not even there.
 */
const CONTROL_LABELS = new Set([
  'common:a11y.skipToContent',
  'common:a11y.openMenu',
  'common:a11y.closeMenu',
  'common:nav.servicesMenu',
  'common:errors.reload',
  'common:errors.tryAgain',
  'common:form.submit',
])

/** Possessive "twój" in every case and gender, with the short forms (twe, twa, twym…). */
const POSSESSIVE =
  /^(twój|twoj(a|e|ego|ej|emu|im|imi|ich|ą)|twe(go|mu|j|m|ch|mi)?|twa|twą|twym|twymi|twych)$/
/** Personal pronoun "ty"; "ci" is handled apart, as it is also "these" (ci klienci). */
const PRONOUN = /^(ty|ciebie|cię|tobie|tobą)$/
/** "ci" as a dative pronoun: after a verb that takes it, or before "się" (podoba ci się). */
const CI_VERB_BEFORE =
  /(my|pozwoli|pozwala|pomoże|pomaga|da|daje|umożliwi|umożliwia|zapewni|zapewnia|pokaże|powie|wyśle|przyśle|oszczędzi|zaoszczędzi|zostanie|zostaje)$/

/** Present tense, past tense and conditional of the second person singular. */
const VERB_FORM = /^(jesteś|byłeś|byłaś|byś|\p{L}+(łeś|łaś|łbyś|łabyś)|\p{L}+[aei]sz|\p{L}+ysz)$/u
/** Words that end like a 2nd-person verb but are not one. */
const NOT_VERB_FORM = new Set(['nasz', 'wasz', 'afisz', 'kapelusz', 'mysz', 'cisz', 'pelisz'])

/** The imperatives such sites use, anywhere in a text. */
const IMPERATIVES = new Set(
  [
    'akceptuj',
    'anuluj',
    'czytaj',
    'daj',
    'dodaj',
    'dołącz',
    'dowiedz',
    'kliknij',
    'kontynuuj',
    'kup',
    'napisz',
    'obejrzyj',
    'odkryj',
    'odśwież',
    'odwiedź',
    'opisz',
    'otwórz',
    'pamiętaj',
    'pobierz',
    'podaj',
    'pokaż',
    'ponów',
    'porozmawiaj',
    'poproś',
    'potwierdź',
    'poznaj',
    'przeczytaj',
    'przejdź',
    'przekaż',
    'prześlij',
    'przeglądaj',
    'przewiń',
    'rozpocznij',
    'skontaktuj',
    'skorzystaj',
    'spróbuj',
    'sprawdź',
    'śledź',
    'uruchom',
    'umów',
    'usuń',
    'wejdź',
    'weź',
    'wpisz',
    'wróć',
    'wybierz',
    'wypełnij',
    'wypróbuj',
    'wyślij',
    'zacznij',
    'zadzwoń',
    'zakończ',
    'zaloguj',
    'zamknij',
    'zamów',
    'zapisz',
    'zapytaj',
    'zarejestruj',
    'zarezerwuj',
    'zgłoś',
    'zmień',
    'zobacz',
    'zostań',
    'zostaw',
    'zrób',
  ].map((word) => word.normalize('NFC')),
)

/**
 * The endings of most other imperatives (poznaj, skontaktuj, wypełnij, odkryj, przejdź,
 * zadzwoń), judged where an imperative stands: at the start of a label or sentence.
 */
const IMPERATIVE_ENDING = /(aj|uj|ij|yj|dź|rz|ń)$/
/** Sentence-initial words with those endings that are not imperatives. */
const NOT_IMPERATIVE = new Set([
  'dzisiaj',
  'tutaj',
  'wczoraj',
  'kraj',
  'rodzaj',
  'zwyczaj',
  'dzień',
  'formularz',
  'kalendarz',
])
/** Imperatives that are also nouns ("umów zawartych"): counted only where a label opens. */
const ALSO_NOUNS = new Set(['umów', 'kup'])

type Finding = { word: string; kind: 'possessive' | 'pronoun' | 'verb' | 'imperative' }

/** Words of a text, lower-case, without placeholders, tags, addresses and e-mail addresses. */
function words(text: string): string[] {
  return text
    .replace(/\{\{[^}]*\}\}/g, ' ')
    .replace(/<\/?[A-Za-z][\w-]*\s*\/?>/g, ' ')
    .replace(/\S+@\S+|https?:\/\/\S+|\S+:\S+/g, ' ')
    .normalize('NFC')
    .toLowerCase()
    .split(/[^\p{L}]+/u)
    .filter(Boolean)
}

/** Words that open a label or a sentence. */
function openingWords(text: string): string[] {
  return text
    .split(/[.!?:;–]\s+/)
    .map((sentence) => words(sentence)[0])
    .filter((word) => word !== undefined)
}

/** Every second-person-singular form in a text; `isControl` exempts imperatives only. */
function informalForms(text: string, isControl = false): Finding[] {
  const found: Finding[] = []
  const all = words(text)
  all.forEach((word, index) => {
    if (POSSESSIVE.test(word)) found.push({ word, kind: 'possessive' })
    else if (PRONOUN.test(word)) found.push({ word, kind: 'pronoun' })
    else if (
      word === 'ci' &&
      (CI_VERB_BEFORE.test(all[index - 1] ?? '') || all[index + 1] === 'się')
    )
      found.push({ word, kind: 'pronoun' })
    else if (VERB_FORM.test(word) && !NOT_VERB_FORM.has(word)) found.push({ word, kind: 'verb' })
    else if (!isControl && IMPERATIVES.has(word) && !ALSO_NOUNS.has(word))
      found.push({ word, kind: 'imperative' })
  })
  if (!isControl) {
    for (const word of openingWords(text)) {
      const isImperative =
        ALSO_NOUNS.has(word) ||
        (IMPERATIVE_ENDING.test(word) &&
          !IMPERATIVES.has(word) &&
          !NOT_IMPERATIVE.has(word) &&
          word.length > 3)
      if (isImperative) found.push({ word, kind: 'imperative' })
    }
  }
  return found
}

const POLISH = localeStrings('pl')

/** The 22 strings the review of 2026-11-25 found (PL-01 to PL-13), as they were. */
const ORIGINAL_BREAKS = [
  'Dziękujemy! Twoja wiadomość została wysłana pomyślnie.',
  'Skontaktuj się z nami',
  'Skontaktuj się',
  'Rozpocznij modernizację',
  'Poznaj rozwiązania szyte na miarę',
  'Dowiedz się więcej',
  'Zobacz wszystkie usługi',
  'Poznaj usługę',
  'Czytaj więcej',
  'Umów bezpłatną konsultację',
  'Umów konsultację',
  'Zamów audyt bezpieczeństwa',
]
const ORIGINAL_CONTROLS = [
  'Przejdź do treści głównej',
  'Otwórz menu',
  'Zamknij menu',
  'Pokaż usługi',
  'Odśwież stronę',
  'Wyślij wiadomość',
]

describe('Polish register', () => {
  it.each(POLISH)('%s uses no second person singular', (key, text) => {
    expect(informalForms(text, CONTROL_LABELS.has(key))).toEqual([])
  })

  it('names only existing keys as control labels', () => {
    const keys = new Set<string>(POLISH.map(([key]) => key))
    expect([...CONTROL_LABELS].filter((key) => !keys.has(key))).toEqual([])
  })

  it.each(ORIGINAL_BREAKS)('finds the original break "%s"', (text) => {
    expect(informalForms(text)).not.toEqual([])
  })

  it.each(ORIGINAL_CONTROLS)('finds the control label "%s" outside the allow-list', (text) => {
    expect(informalForms(text)).not.toEqual([])
    expect(informalForms(text, true)).toEqual([])
  })

  it.each([
    ['Możesz napisać do nas w każdej chwili.', 'verb'],
    ['Czy wiesz, gdzie są Twoje dane?', 'possessive'],
    ['Pomożemy ci w migracji.', 'pronoun'],
    ['Dla ciebie przygotowaliśmy ofertę.', 'pronoun'],
    ['Jeśli zdecydowałeś się na migrację…', 'verb'],
    ['Wypełnij formularz', 'imperative'],
  ] as const)('finds "%s" (%s)', (text, kind) => {
    expect(informalForms(text).map((finding) => finding.kind)).toContain(kind)
  })

  it.each([
    'Ci klienci mają jedną osobę kontaktową.',
    'Nasz zespół odpowiada w ciągu dnia.',
    'Prosimy wybrać z listy',
    'Porozmawiajmy o Państwa projekcie',
    'Dotyczy umów zawartych od dziś.',
  ])('leaves "%s" alone', (text) => {
    expect(informalForms(text)).toEqual([])
  })
})
