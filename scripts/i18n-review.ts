// `npm run i18n:review`: the strings of each language no native editor has read as they are now
// (docs/translating.md#every-text-read-by-a-native-editor), each with its English beside it, so
// an editor can read them in context. `-- --locale de` lists one language.
//
// `-- --record de --reader "<who>" --scope "<what was read>" [--fixed key,key…]` writes the
// review of what is pending in German now: docs/translating/reviews/<date>-de.json. Its report,
// <date>-de.md, is the editor's to write beside it; the test fails without it.
import { existsSync, writeFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { parseArgs } from 'node:util'
import { isLocale, LOCALES, type Locale } from '#shared/locales.ts'
import {
  localeTexts,
  pendingTexts,
  REVIEWS_DIR,
  textChecksum,
  textReviews,
  type TextReview,
} from './lib/text-reviews.ts'

const { values: args } = parseArgs({
  options: {
    locale: { type: 'string' },
    record: { type: 'string' },
    reader: { type: 'string' },
    scope: { type: 'string' },
    fixed: { type: 'string', default: '' },
  },
})

function locale(value: string | undefined, option: string): Locale | undefined {
  if (value === undefined) return undefined
  if (isLocale(value)) return value
  console.error(`--${option} ${value}: not one of ${LOCALES.join(', ')}`)
  process.exit(2)
}

const reviews = textReviews()
const english = localeTexts('en')
const recording = locale(args.record, 'record')

if (recording) {
  if (!args.reader?.trim() || !args.scope?.trim()) {
    console.error('--record needs --reader "<who read them>" and --scope "<what was read>"')
    process.exit(2)
  }
  const texts = localeTexts(recording)
  const pending = pendingTexts(recording, texts, reviews)
  const fixed = args.fixed.split(',').filter(Boolean)
  const unknown = fixed.filter((key) => !pending.some((text) => text.key === key))
  if (unknown.length > 0) {
    console.error(`--fixed names strings that are not pending: ${unknown.join(', ')}`)
    process.exit(2)
  }
  const date = new Date().toISOString().slice(0, 10)
  let id = `${date}-${recording}`
  for (let n = 2; existsSync(join(REVIEWS_DIR, `${id}.json`)); n++) id = `${date}-${recording}-${n}`
  const review: Omit<TextReview, 'id'> = {
    date,
    locale: recording,
    reader: args.reader.trim(),
    scope: args.scope.trim(),
    strings: Object.fromEntries(pending.map(({ key, text }) => [key, textChecksum(text)])),
    fixed,
  }
  const path = join(REVIEWS_DIR, `${id}.json`)
  writeFileSync(path, `${JSON.stringify(review, null, 2)}\n`)
  console.log(`${relative(process.cwd(), path)}: ${pending.length} strings, ${fixed.length} fixed.`)
  console.log(
    `The reader's report goes beside it: ${relative(process.cwd(), path.replace(/json$/, 'md'))}.`,
  )
} else {
  const only = locale(args.locale, 'locale')
  let total = 0
  for (const current of only ? [only] : LOCALES) {
    const pending = pendingTexts(current, localeTexts(current), reviews)
    total += pending.length
    console.log(`${current}: ${pending.length} strings not read as they are now`)
    for (const { key, text, lastReview } of pending) {
      console.log(`\n  ${key}${lastReview ? ` (changed since ${lastReview})` : ' (never read)'}`)
      console.log(`    ${text}`)
      const source = english.get(key)
      if (current !== 'en' && source !== undefined) console.log(`    en: ${source}`)
    }
    console.log('')
  }
  if (total > 0) {
    console.log(
      'Have a native editor of each language read them in context, then record the review:',
    )
    console.log(
      'npm run i18n:review -- --record <locale> --reader "<who>" --scope "<what>" --fixed <keys>',
    )
  }
}
