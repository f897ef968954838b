import { relative } from 'node:path'
import { brotliCompressSync, constants, gzipSync } from 'node:zlib'
import type { Plugin } from 'vite'

/**
 * `npm run build`'s bundle report (docs/performance.md#what-the-first-view-javascript-is-made-of):
 * what each package and each module of the app costs in each chunk of the client build (the
 * page scripts; a worker is bundled on its own and loads only with the form): the
 * bytes the bundler rendered of it into that chunk (after tree shaking, before minification,
 * Rolldown's `renderedLength`), its share of the chunk, and that share of the chunk's size as
 * sent (Brotli 11, as scripts/compress-assets.ts makes it: an estimate, since compression is not
 * additive), beside each chunk's minified, Brotli and gzip -9 sizes. Written to
 * `dist/client/.vite/` (never served: the static files skip dotfiles) as `bundle-report.json`
 * and `bundle-report.md`.
 */
type BundleReport = {
  chunks: {
    file: string
    name: string
    /** Minified bytes, and as sent with each encoding. */
    bytes: number
    brotli: number
    gzip: number
    /**
     * Package name (`react-dom`) or the app module's path (`client/hydrate.tsx`), largest first:
     * rendered bytes before minification, and the estimated Brotli bytes of its share.
     */
    parts: { owner: string; rendered: number; brotli: number }[]
  }[]
}

const PACKAGE = /[\\/]node_modules[\\/]((?:@[^\\/]+[\\/])?[^\\/]+)[\\/]/

/** Who a module belongs to: its package, or its path in the app. */
function ownerOf(id: string, root: string): string {
  const inPackage = PACKAGE.exec(id)
  if (inPackage?.[1]) return inPackage[1].replace('\\', '/')
  if (id.startsWith('\0') || !id.startsWith(root)) return '(bundler runtime)'
  return relative(root, id.split('?')[0] ?? id).replaceAll('\\', '/')
}

const kB = (bytes: number) => (bytes / 1000).toFixed(1)

function markdown(report: BundleReport): string {
  const lines = [
    '# Bundle report',
    '',
    'Per chunk: each package or app module, its rendered bytes (after tree shaking, before',
    "minification), its share, and that share of the chunk's Brotli size (an estimate).",
    '',
  ]
  for (const chunk of report.chunks) {
    lines.push(
      `## ${chunk.file}`,
      '',
      `${kB(chunk.bytes)} kB minified, ${kB(chunk.brotli)} kB Brotli, ${kB(chunk.gzip)} kB gzip`,
      '',
      '| part | rendered kB | share | ≈ Brotli kB |',
      '| ---- | ----------: | ----: | ----------: |',
      ...chunk.parts.map(
        (part) =>
          `| ${part.owner} | ${kB(part.rendered)} | ${((100 * part.brotli) / Math.max(chunk.brotli, 1)).toFixed(1)} % | ${kB(part.brotli)} |`,
      ),
      '',
    )
  }
  return lines.join('\n')
}

export function bundleReport(root: string): Plugin {
  return {
    name: 'bundle-report',
    apply: 'build',
    // After Vite's own steps, which drop the script of a chunk that only carried CSS.
    generateBundle: {
      order: 'post',
      handler(_options, bundle) {
        const report: BundleReport = { chunks: [] }
        for (const output of Object.values(bundle)) {
          if (output.type !== 'chunk') continue
          const parts = new Map<string, number>()
          for (const [id, module] of Object.entries(output.modules)) {
            const owner = ownerOf(id, root)
            parts.set(owner, (parts.get(owner) ?? 0) + module.renderedLength)
          }
          const code = Buffer.from(output.code)
          const brotli = brotliCompressSync(code, {
            params: { [constants.BROTLI_PARAM_QUALITY]: 11 },
          }).length
          const rendered = [...parts.values()].reduce((total, bytes) => total + bytes, 0)
          report.chunks.push({
            file: output.fileName,
            name: output.name,
            bytes: code.length,
            brotli,
            gzip: gzipSync(code, { level: 9 }).length,
            parts: [...parts]
              .filter(([, bytes]) => bytes > 0)
              .map(([owner, bytes]) => ({
                owner,
                rendered: bytes,
                brotli: Math.round((brotli * bytes) / rendered),
              }))
              .sort((a, b) => b.rendered - a.rendered),
          })
        }
        report.chunks.sort((a, b) => b.bytes - a.bytes)
        this.emitFile({
          type: 'asset',
          fileName: '.vite/bundle-report.json',
          source: JSON.stringify(report, null, 2),
        })
        this.emitFile({
          type: 'asset',
          fileName: '.vite/bundle-report.md',
          source: markdown(report),
        })
      },
    },
  }
}
