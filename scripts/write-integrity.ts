// Writes dist/integrity.json: the Subresource Integrity of every script the client build
// made (sha384, as browsers check it), so a page whose scripts come from a CDN (`CDN_URL`)
// names what each file must hash to, and the build's stylesheets, which the site serves itself
// (server/render/integrity.ts, docs/security.md#security-the-policy-enforced-and-reported). Beside
// the client directory, not in it: nothing of it is served as a file. Only scripts come from the
// CDN, so only scripts need integrity (docs/decisions/subresource-integrity.md).
import { createHash } from 'node:crypto'
import { readdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { INTEGRITY_FILE, type IntegrityTable } from '#server/render/integrity.ts'

const dist = join(import.meta.dirname, '..', 'dist')
const assets = join(dist, 'client', 'assets')
const names = readdirSync(assets).sort()
const table: IntegrityTable = { scripts: {}, stylesheets: [] }
for (const name of names.filter((file) => file.endsWith('.js'))) {
  const digest = createHash('sha384')
    .update(readFileSync(join(assets, name)))
    .digest('base64')
  table.scripts[`assets/${name}`] = `sha384-${digest}`
}
table.stylesheets = names.filter((file) => file.endsWith('.css')).map((file) => `assets/${file}`)
writeFileSync(join(dist, INTEGRITY_FILE), `${JSON.stringify(table, null, 2)}\n`)
console.log(
  `integrity of ${Object.keys(table.scripts).length} scripts, ${table.stylesheets.length} stylesheets`,
)
