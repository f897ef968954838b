// The context translators read beside the texts (docs/translating.md, docs/translating/*.md)
// must stay true of the English files: every placeholder in the reference, one description
// file per namespace, no described key that is gone, and the texts they would otherwise guess
// at described. Each check is also shown failing on a broken copy of the real docs.
import { describe, expect, it } from 'vitest'
import { LOCALES } from '#shared/locales.ts'
import { FILE_NAMESPACES } from '#shared/namespaces.ts'
import { SERVICES, SUPPORT_TIERS } from '#shared/services.ts'
import { TEAM } from '#shared/team.ts'
import { TEXT_LIMITS } from '#shared/text-limits.ts'
import { flatten } from '#tests/helpers/locale-checks.ts'
import { texts } from '#tests/helpers/locales.ts'
import {
  descriptionFile,
  descriptionFiles,
  guide,
  missingDescriptions,
  statedCountProblems,
  type TableCount,
  placeholderNames,
  placeholderProblems,
  placeholderRows,
  requiredDescriptions,
  rowProblems,
  tableRows,
  undescribedKeys,
  type Row,
} from '#tests/helpers/translator-docs.ts'

const english = (ns: string) => flatten(texts('en', ns))
const placeholders = placeholderRows(guide())
const used = placeholderNames(FILE_NAMESPACES.flatMap((ns) => [...english(ns).values()]))
const settings = new Set(
  placeholders.filter((row) => row.kind === 'setting').map((row) => row.name),
)

/** The tables a note may count by the noun after the number. */
const TABLE_COUNTS: TableCount[] = [
  { noun: /^services\b/, count: SERVICES.length },
  { noun: /^co-founders\b/, count: TEAM.length },
  { noun: /^(?:support )?packages\b/, count: SUPPORT_TIERS.length },
  { noun: /^languages\b/, count: LOCALES.length },
]

/** The counts `ns`'s notes state that no check holds, or that are wrong. */
function counts(ns: string, markdown = descriptionFile(ns)) {
  return statedCountProblems(markdown, texts('en', ns), english(ns), TABLE_COUNTS)
}

/** The keys of `ns` that must be described and are not, in the given rows. */
function missing(ns: string, rows: readonly Row[]) {
  return missingDescriptions(requiredDescriptions(ns, english(ns), settings, TEXT_LIMITS), rows)
}

describe('placeholder reference (docs/translating.md, “Placeholders”)', () => {
  it('lists every placeholder of the English texts, each once with its kind, and no other', () => {
    expect(placeholderProblems(used, placeholders)).toEqual([])
  })
})

describe('descriptions (docs/translating/<namespace>.md)', () => {
  it('one file per namespace, headed by its name, and no other', () => {
    const files = descriptionFiles()
    expect([
      ...FILE_NAMESPACES.filter((ns) => !files.includes(ns)).map((ns) => `${ns}.md is missing`),
      ...files
        .filter((file) => !(FILE_NAMESPACES as readonly string[]).includes(file))
        .map((file) => `${file}.md describes no namespace`),
    ]).toEqual([])
    for (const ns of FILE_NAMESPACES) {
      expect(descriptionFile(ns).split('\n')[0], `${ns}.md's heading`).toBe(`# ${ns}`)
    }
  })

  for (const ns of FILE_NAMESPACES) {
    it(`${ns}: names only keys of its English file, each with a description`, () => {
      expect(rowProblems(english(ns), tableRows(descriptionFile(ns)))).toEqual([])
    })

    it(`${ns}: describes what a translator would otherwise guess`, () => {
      expect(missing(ns, tableRows(descriptionFile(ns)))).toEqual([])
    })

    it(`${ns}: describes every key of its English file`, () => {
      expect(undescribedKeys(english(ns), tableRows(descriptionFile(ns)))).toEqual([])
    })

    it(`${ns}: every count it states is the count of a list or a table`, () => {
      expect(counts(ns)).toEqual([])
    })
  }
})

describe('each check fails on a broken example', () => {
  it('a legal section left without a description', () => {
    const rows = tableRows(descriptionFile('privacy'))
    expect(missing('privacy', rows)).toEqual([])
    const broken = rows.filter((row) => row.name !== 'sections.recipients')
    expect(missing('privacy', broken)).toEqual([
      'sections.recipients (a section of a legal text) is not described',
    ])
  })

  it('a setting its description no longer names', () => {
    const rows = tableRows(descriptionFile('privacy'))
    const broken = rows.map(({ name, cells }) => ({
      name,
      cells: cells.map((cell) => cell.replaceAll('{{logRetention}}', 'the log period')),
    }))
    expect(missing('privacy', broken)).toEqual([
      'sections.overview.items.0 states the setting {{logRetention}}: no description of it names {{logRetention}}',
      'sections.hosting.paragraphs.1 states the setting {{logRetention}}: no description of it names {{logRetention}}',
      'sections.retention.paragraphs.0 states the setting {{logRetention}}: no description of it names {{logRetention}}',
    ])
  })

  it('a button without a description', () => {
    const rows = tableRows(descriptionFile('common'))
    expect(missing('common', rows)).toEqual([])
    const broken = rows.filter((row) => row.name !== 'form.submit')
    expect(missing('common', broken)).toEqual([
      'form.submit (at most 24 characters in the contact form’s button) is not described',
    ])
  })

  it('a key no row describes: a new field’s label', () => {
    const rows = tableRows(descriptionFile('common'))
    const withPhone = new Map([...english('common'), ['form.phone', 'Phone']])
    expect(undescribedKeys(withPhone, rows)).toEqual([
      'form.phone: no row describes it (nor one of its prefixes)',
    ])
  })

  it('a count left behind: six services in the notes beside a seventh', () => {
    const seven = descriptionFile('services') + '\nThe seven services each have a card.\n'
    expect(counts('services', seven)).toEqual([
      `“seven services each”: the table has ${SERVICES.length}`,
    ])
  })

  it('a described key that English no longer has', () => {
    const rows = tableRows(descriptionFile('imprint'))
    expect(rowProblems(english('imprint'), rows)).toEqual([])
    const broken = [...rows, { name: 'labels.contact', cells: ['The contact label.'] }]
    expect(rowProblems(english('imprint'), broken)).toEqual([
      'labels.contact: no such key in English',
    ])
  })

  it('a placeholder missing from the reference, and one no text uses', () => {
    expect(placeholderProblems(used, placeholders)).toEqual([])
    const broken = [
      ...placeholders.filter((row) => row.name !== 'logRetention'),
      { name: 'vatId', kind: 'company', description: 'the VAT identification number' },
    ]
    expect(placeholderProblems(used, broken)).toEqual([
      '{{logRetention}}: used in English, not in the placeholder table',
      '{{vatId}}: in the placeholder table, used by no English text',
    ])
  })
})
