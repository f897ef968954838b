// Every text is read by a native editor of its language before it ships
// (docs/translating.md#every-text-read-by-a-native-editor). A review is a pair of files in
// docs/translating/reviews/: `<id>.json` names each string it read with the checksum of the
// words read, and `<id>.md` is the editor's report (what was read, in which context, what was
// changed and why). A string whose words differ from the checksum of its latest review, or that
// no review names, is pending: `npm run i18n:review` lists it, and tests/locales/reviews.test.ts
// fails until a review names it as it is.
import { createHash } from 'node:crypto'
import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { FILE_NAMESPACES } from '#shared/namespaces.ts'
import { isLocale, type Locale } from '#shared/locales.ts'
import { LOCALES_DIR } from './locale-json.ts'

export const REVIEWS_DIR = join(import.meta.dirname, '..', '..', 'docs', 'translating', 'reviews')

/** One review: who read which strings of one language, on which day. */
export type TextReview = {
  /** The files' name: `<date>-<locale>` and, for a second review that day, `-2`, `-3` … */
  id: string
  date: string
  locale: Locale
  /** Who read them: a role and, where it is a person, a name. */
  reader: string
  /** What was read, in a sentence (the texts changed since …, a whole language …). */
  scope: string
  /** `namespace:key` → checksum of the words read. */
  strings: Readonly<Record<string, string>>
  /** The strings the reader changed before passing them (their findings): the recount. */
  fixed: readonly string[]
}

/** The checksum a review keeps of a string: enough to tell any edit, short enough to diff. */
export function textChecksum(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 12)
}

/** A locale file's tree as `key → text` (`form.status.rateLimited_one`). */
function flatten(tree: Readonly<Record<string, unknown>>, prefix = ''): [string, string][] {
  return Object.entries(tree).flatMap(([key, value]) => {
    const path = prefix ? `${prefix}.${key}` : key
    return typeof value === 'string'
      ? [[path, value] as [string, string]]
      : flatten(value as Record<string, unknown>, path)
  })
}

/** Every string of a language as the files hold it: `namespace:key` → text. */
export function localeTexts(locale: Locale, dir = LOCALES_DIR): Map<string, string> {
  return new Map(
    FILE_NAMESPACES.flatMap((ns) =>
      flatten(
        JSON.parse(readFileSync(join(dir, locale, `${ns}.json`), 'utf8')) as Record<
          string,
          unknown
        >,
      ).map(([key, text]) => [`${ns}:${key}`, text] as const),
    ),
  )
}

const ID = /^(\d{4}-\d{2}-\d{2})-([a-z]{2})(?:-\d+)?$/

/** A review file's content, checked: a malformed one is an error naming the file. */
function parseReview(id: string, text: string): TextReview {
  const fail = (why: string): never => {
    throw new Error(`docs/translating/reviews/${id}.json: ${why}`)
  }
  const match = ID.exec(id) ?? fail('the name is not <YYYY-MM-DD>-<locale>[-<n>]')
  const data = JSON.parse(text) as Partial<Record<keyof TextReview, unknown>>
  const [, date, locale] = match
  if (data.date !== date) fail(`"date" is not ${date}, the date in its name`)
  if (!isLocale(locale) || data.locale !== locale) fail(`"locale" is not ${locale}, its name's`)
  if (typeof data.reader !== 'string' || data.reader.trim() === '') fail('no "reader"')
  if (typeof data.scope !== 'string' || data.scope.trim() === '') fail('no "scope"')
  const strings = data.strings
  if (typeof strings !== 'object' || strings === null) fail('no "strings"')
  for (const [key, sum] of Object.entries(strings as object)) {
    if (typeof sum !== 'string' || !/^[0-9a-f]{12}$/.test(sum)) fail(`${key}: not a checksum`)
  }
  const fixed: unknown = data.fixed ?? []
  if (
    !Array.isArray(fixed) ||
    fixed.some((key) => typeof key !== 'string' || !Object.hasOwn(strings as object, key))
  ) {
    fail('"fixed" names a string the review does not name in "strings"')
  }
  return { ...(data as TextReview), id, fixed: fixed as string[] }
}

/** Every review, oldest first (by date, then by the number of a day's second review). */
export function textReviews(dir = REVIEWS_DIR): TextReview[] {
  if (!existsSync(dir)) return []
  return readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .map((name) => name.slice(0, -'.json'.length))
    .map((id) => parseReview(id, readFileSync(join(dir, `${id}.json`), 'utf8')))
    .sort(
      (a, b) =>
        a.date.localeCompare(b.date) || a.id.length - b.id.length || a.id.localeCompare(b.id),
    )
}

/** A string not yet read as it is now, with the review that last read it, if any. */
export type PendingText = { key: string; text: string; lastReview?: string }

/** The strings of `locale` whose words no review has read. */
export function pendingTexts(
  locale: Locale,
  texts: ReadonlyMap<string, string>,
  reviews: readonly TextReview[],
): PendingText[] {
  const latest = new Map<string, { sum: string; id: string }>()
  for (const review of reviews.filter((candidate) => candidate.locale === locale)) {
    for (const [key, sum] of Object.entries(review.strings)) latest.set(key, { sum, id: review.id })
  }
  return [...texts].flatMap(([key, text]) => {
    const last = latest.get(key)
    if (last?.sum === textChecksum(text)) return []
    return [{ key, text, ...(last ? { lastReview: last.id } : {}) }]
  })
}

/** What is wrong with the reviews themselves: a review without its report. */
export function reviewFileProblems(reviews: readonly TextReview[], dir = REVIEWS_DIR): string[] {
  return reviews.flatMap(({ id, fixed }) => {
    const report = join(dir, `${id}.md`)
    if (!existsSync(report)) return [`${id}.json has no report, docs/translating/reviews/${id}.md`]
    const words = readFileSync(report, 'utf8')
    return fixed
      .filter((key) => !words.includes(key))
      .map(
        (key) =>
          `${id}.md does not say what was changed in ${key}, which ${id}.json lists as fixed`,
      )
  })
}
