// `npm run go-live [-- --url https://www.example.de]`: what can be checked before a public
// launch, and after it from outside (docs/go-live.md). Exits 1 if any check fails. The
// statements only the operator can make true are listed at the end, each with its section.
import { parseArgs } from 'node:util'
import { checkBuild, checkFacts, checkSite, type CheckResult } from './lib/go-live.ts'

const { values: args } = parseArgs({ options: { url: { type: 'string' } } })

let base: URL | undefined
if (args.url !== undefined) {
  try {
    base = new URL(args.url)
  } catch {
    console.error(`--url ${args.url}: not a URL (https://www.example.de)`)
    process.exit(2)
  }
}

const results: CheckResult[] = [checkFacts(), checkBuild()]
if (base) results.push(...(await checkSite(base)))

for (const { check, ok, detail } of results) console.log(`${ok ? '✓' : '✗'} ${check}: ${detail}`)
if (!base) console.log('- the deployed site: not checked (add --url https://…)')
console.log(
  '\nConfirm by hand what only the operator can make true: docs/go-live.md, ' +
    '"Statements only the operator can make true" (log retention, the entry proxy\'s log, ' +
    'statistics retention, the CDN contract, backups, support hours).',
)
const failed = results.filter(({ ok }) => !ok).length
if (failed > 0) {
  console.log(`\n${failed} of ${results.length} checks failed.`)
  process.exit(1)
}
