// Precompresses the hashed client assets (brotli and gzip, best quality) so the server sends
// them without compressing per request. Only worthwhile text files; a variant that is not
// smaller is not kept.
import { readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'

const dir = join(import.meta.dirname, '..', 'dist', 'client', 'assets')
let files = 0
let saved = 0
for (const name of readdirSync(dir)) {
  if (!/\.(js|css|svg|json)$/.test(name)) continue
  const path = join(dir, name)
  const source = readFileSync(path)
  if (statSync(path).size < 1024) continue
  const variants: [string, Buffer][] = [
    ['br', brotliCompressSync(source, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } })],
    ['gz', gzipSync(source, { level: 9 })],
  ]
  for (const [suffix, compressed] of variants) {
    if (compressed.length >= source.length) continue
    writeFileSync(`${path}.${suffix}`, compressed)
    saved += source.length - compressed.length
  }
  files++
}
console.log(
  `precompressed ${files} assets (${Math.round(saved / 1024)} KiB saved per full download)`,
)
