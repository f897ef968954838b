// The context translators get beside the texts (docs/translating.md, docs/translating/*.md)
// read as data, and the checks that keep it true of the English texts, as functions so each
// can be shown failing on a broken example (tests/locales/translator-docs.test.ts). Each check
// returns what it found, one line per problem, empty when the docs pass.
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { LEGAL_TEXTS } from '#shared/legal.ts'
import { PAGES } from '#shared/pages.ts'
import { limitOf, markers, pluralBase, type TextLimit, type Texts } from './locale-checks.ts'

const DOCS_DIR = join(import.meta.dirname, '..', '..', 'docs')

/** The guide, `docs/translating.md`. */
export function guide(): string {
  return readFileSync(join(DOCS_DIR, 'translating.md'), 'utf8')
}

/** The description files, `docs/translating/<name>.md`, by name. */
export function descriptionFiles(): string[] {
  return readdirSync(join(DOCS_DIR, 'translating'))
    .filter((file) => file.endsWith('.md'))
    .map((file) => file.slice(0, -'.md'.length))
}

/** One namespace's description file, `docs/translating/<namespace>.md`. */
export function descriptionFile(namespace: string): string {
  return readFileSync(join(DOCS_DIR, 'translating', `${namespace}.md`), 'utf8')
}

/** A table row that names something in backticks: `` | `sections.cdn` | What it is | ``. */
export type Row = { name: string; cells: string[] }

/** The rows of a markdown text's tables whose first cell is code. */
export function tableRows(markdown: string): Row[] {
  return markdown
    .split('\n')
    .filter((line) => line.startsWith('| `'))
    .map((line) => {
      const [first = '', ...cells] = line
        .trim()
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((cell) => cell.trim())
      return { name: first.replace(/^`|`$/g, ''), cells }
    })
}

/** What the placeholder reference may call a placeholder's kind. */
const PLACEHOLDER_KINDS = ['company', 'figure', 'setting', 'value'] as const

export type PlaceholderRow = { name: string; kind: string; description: string }

/** The rows of the guide's "Placeholders" section: `{{logRetention}}` → `logRetention`. */
export function placeholderRows(markdown: string): PlaceholderRow[] {
  const start = markdown.search(/^#+ Placeholders$/m)
  if (start < 0) return []
  const rest = markdown.slice(start).split('\n').slice(1).join('\n')
  const end = rest.search(/^#/m)
  return tableRows(end < 0 ? rest : rest.slice(0, end)).map(({ name, cells }) => ({
    name: name.replace(/^\{\{|\}\}$/g, ''),
    kind: cells[0] ?? '',
    description: cells[1] ?? '',
  }))
}

/** The placeholders' names in texts, as the parity check compares them (`gdpr.fineEuros`). */
export function placeholderNames(texts: Iterable<string>): Set<string> {
  return new Set(
    [...texts].flatMap((text) =>
      markers(text)
        .filter((marker) => marker.startsWith('{{'))
        .map((marker) => marker.slice(2, -2)),
    ),
  )
}

/** Every placeholder of the English texts in the reference, once, with a kind and words. */
export function placeholderProblems(
  used: ReadonlySet<string>,
  rows: readonly PlaceholderRow[],
): string[] {
  const listed = rows.map(({ name }) => name)
  const kinds: readonly string[] = PLACEHOLDER_KINDS
  return [
    ...[...used]
      .filter((name) => !listed.includes(name))
      .map((name) => `{{${name}}}: used in English, not in the placeholder table`),
    ...rows.flatMap(({ name, kind, description }, index) => [
      ...(used.has(name) ? [] : [`{{${name}}}: in the placeholder table, used by no English text`]),
      ...(listed.indexOf(name) < index ? [`{{${name}}}: listed twice`] : []),
      ...(kinds.includes(kind)
        ? []
        : [`{{${name}}}: kind “${kind}” is not one of ${kinds.join(', ')}`]),
      ...(description ? [] : [`{{${name}}}: no description`]),
    ]),
  ]
}

/** Whether a row's name is this key, its plural base (`days` for `days_one`) or a prefix of it. */
function covers(name: string, key: string): boolean {
  return name === key || name === pluralBase(key) || key.startsWith(`${name}.`)
}

/** Every row names a key of the English file, or a prefix or plural base of one, and says something. */
export function rowProblems(english: Texts, rows: readonly Row[]): string[] {
  const keys = [...english.keys()]
  return rows.flatMap(({ name, cells }, index) => [
    ...(keys.some((key) => covers(name, key)) ? [] : [`${name}: no such key in English`]),
    ...(rows.findIndex((row) => row.name === name) < index ? [`${name}: described twice`] : []),
    ...(cells[0] ? [] : [`${name}: no description`]),
  ])
}

/** A text translators must not guess at, why, and a placeholder its description must name. */
export type Required = { key: string; why: string; names?: string }

/** The legal texts' namespaces: each section, the introduction and the history need context. */
const LEGAL_NAMESPACES: readonly string[] = PAGES.filter((page) =>
  (LEGAL_TEXTS as readonly string[]).includes(page.screen),
).map((page) => page.namespaces[0])

/**
 * The keys of a namespace that must be described: those with a length limit, those stating a
 * setting of the running site (their description names the placeholder), and in a legal text
 * every section, the introduction and the history.
 */
export function requiredDescriptions(
  namespace: string,
  english: Texts,
  settings: ReadonlySet<string>,
  limits: readonly TextLimit[],
): Required[] {
  const keys = [...english.keys()]
  const limited = keys.flatMap((key) => {
    const limit = limitOf(namespace, key, limits)
    return limit
      ? [{ key, why: `at most ${limit.max} characters in ${limit.where ?? 'its place'}` }]
      : []
  })
  const stating = [...english].flatMap(([key, text]) =>
    [...placeholderNames([text])]
      .filter((name) => settings.has(name))
      .map((name) => ({ key, why: `states the setting {{${name}}}`, names: `{{${name}}}` })),
  )
  if (!LEGAL_NAMESPACES.includes(namespace)) return [...limited, ...stating]
  const sections = new Set(
    keys.filter((key) => key.startsWith('sections.')).map((key) => key.split('.', 2).join('.')),
  )
  const legal = [
    ...[...sections].map((key) => ({ key, why: 'a section of a legal text' })),
    ...['intro', 'history']
      .filter((key) => keys.some((k) => covers(key, k)))
      .map((key) => ({ key, why: `the legal text’s ${key}` })),
  ]
  return [...legal, ...limited, ...stating]
}

/** The required texts no row describes (a prefix covers its keys; `names` must be in its words). */
export function missingDescriptions(required: readonly Required[], rows: readonly Row[]): string[] {
  return required
    .filter(({ key, names }) =>
      rows.every(
        ({ name, cells }) =>
          !covers(name, key) || (names !== undefined && !cells[0]?.includes(names)),
      ),
    )
    .map(({ key, why, names }) =>
      names
        ? `${key} ${why}: no description of it names ${names}`
        : `${key} (${why}) is not described`,
    )
}

/** Every key of the English file described by a row: its own, its plural base's or a prefix's. */
export function undescribedKeys(english: Texts, rows: readonly Row[]): string[] {
  return [...english.keys()]
    .filter((key) => rows.every(({ name }) => !covers(name, key)))
    .map((key) => `${key}: no row describes it (nor one of its prefixes)`)
}

const COUNT_WORDS = ['two', 'three', 'four', 'five', 'six', 'seven', 'eight', 'nine', 'ten']

/** The sizes of the lists in a tree: arrays, and the keyed entries (objects) of an object. */
function listSizes(value: unknown): number[] {
  if (typeof value !== 'object' || value === null) return []
  const children = Object.values(value)
  const entries = Array.isArray(value)
    ? children.length
    : children.filter((child) => typeof child === 'object' && child !== null).length
  return [...(entries > 0 ? [entries] : []), ...children.flatMap(listSizes)]
}

/** A count a note may state of the site's tables: the noun after it and how many there are. */
export type TableCount = { noun: RegExp; count: number }

/**
 * The counts a description file states in words, each true: in a quotation (“Six areas”) it is
 * the English text's, which a check of its own holds to the table; in a row, the number of
 * entries of a list under that row's key or its parent's; elsewhere, a table's size by the noun after it. Any
 * other count would drift unseen, so it is a problem too: write it so a check can hold it.
 */
export function statedCountProblems(
  markdown: string,
  tree: Readonly<Record<string, unknown>>,
  english: Texts,
  tables: readonly TableCount[],
): string[] {
  const texts = [...english.values()].map((text) => text.toLowerCase())
  const problems: string[] = []
  for (const line of markdown.split('\n')) {
    const cells = line.startsWith('| `') ? line.split('|').slice(2).join('|') : line
    const key = line.startsWith('| `') ? /^\| `([^`]+)`/.exec(line)?.[1] : undefined
    const quoted = [...cells.matchAll(/“([^”]+)”/g)].map(([, quote]) => quote ?? '')
    for (const match of cells.matchAll(
      /\b([A-Za-z]+)\b(?!-)(?=(?:\s+([a-z-]+))?(?:\s+([a-z-]+))?)/g,
    )) {
      const count = COUNT_WORDS.indexOf((match[1] ?? '').toLowerCase()) + 2
      if (count < 2) continue
      const phrase = [match[1], match[2], match[3]].filter(Boolean).join(' ')
      const where = `“${phrase}”${key ? ` (row ${key})` : ''}`
      const quote = quoted.find((text) => text.includes(match[1] ?? ''))
      if (quote !== undefined) {
        if (!texts.some((text) => text.includes(quote.toLowerCase()))) {
          problems.push(`${where}: quotes “${quote}”, which no English text of it says`)
        }
        continue
      }
      if (key !== undefined) {
        // The row's own lists, or its siblings' (`stats.heading` names the band `stats.items`).
        const at = (path: string[]) =>
          path.reduce<unknown>((node, part) => {
            return typeof node === 'object' && node !== null
              ? (node as Record<string, unknown>)[part]
              : undefined
          }, tree)
        const parts = key.split('.')
        const sizes = [...listSizes(at(parts)), ...listSizes(at(parts.slice(0, -1)))]
        if (sizes.includes(count)) continue
      }
      const nouns = [match[2], match[3]].filter(Boolean).join(' ')
      const table = tables.find(({ noun }) => noun.test(nouns))
      if (table?.count === count) continue
      problems.push(
        table
          ? `${where}: the table has ${table.count}`
          : `${where}: no list of ${count} under the row's key and no table this check counts`,
      )
    }
  }
  return problems
}
