// Writes dist/build-info.json: the build id is a hash of the client manifest, so the same
// sources give the same id on every replica, and any change to a shipped file gives a new one.
import { createHash } from 'node:crypto'
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'

const dist = join(import.meta.dirname, '..', 'dist')
const manifest = readFileSync(join(dist, 'client', '.vite', 'manifest.json'))
const id = createHash('sha256').update(manifest).digest('hex').slice(0, 12)
const info = { id, timestamp: Date.now() }
writeFileSync(join(dist, 'build-info.json'), `${JSON.stringify(info)}\n`)
console.log(`build ${info.id}`)
