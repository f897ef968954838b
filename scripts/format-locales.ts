// `npm run format` for the locale files: writes each in the layout the translation tool writes
// (scripts/lib/locale-json.ts), which Prettier cannot (it joins short arrays onto one line).
// `--check` changes nothing, lists the files out of layout and exits 1 if there are any.
import { readFileSync, writeFileSync } from 'node:fs'
import { relative } from 'node:path'
import { parseArgs } from 'node:util'
import { canonicalLocaleJson, LOCALES_DIR, unformattedLocaleFiles } from './lib/locale-json.ts'

const { values: args } = parseArgs({ options: { check: { type: 'boolean', default: false } } })
const files = unformattedLocaleFiles()
const name = (path: string) => `locales/${relative(LOCALES_DIR, path)}`

if (args.check) {
  for (const path of files) console.error(`not in the translation tool's layout: ${name(path)}`)
  if (files.length > 0) {
    console.error('Run `npm run format` to write them as the tool does.')
    process.exit(1)
  }
} else {
  for (const path of files) {
    writeFileSync(path, canonicalLocaleJson(readFileSync(path, 'utf8')))
    console.log(`formatted ${name(path)}`)
  }
}
