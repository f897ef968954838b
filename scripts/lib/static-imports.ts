import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'

/** `import … from '…'` and `export … from '…'`, not `import(…)`: the static graph only. */
const STATIC_IMPORT = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\sfrom\s+)?['"]([^'"]+)['"]/gm

/**
 * The project's own modules a file imports statically, transitively (type-only imports and
 * packages left out): for the build, the app shell that every page loads
 * (docs/decisions/framework-chunk-computed-from-the-sources.md).
 */
export function staticImports(root: string, entry: string): Set<string> {
  const aliases: Record<string, string> = { '#shared/': 'shared/', '#client/': 'client/' }
  const seen = new Set<string>()
  const visit = (file: string) => {
    if (seen.has(file)) return
    seen.add(file)
    for (const [, specifier = ''] of readFileSync(file, 'utf8').matchAll(STATIC_IMPORT)) {
      const alias = Object.keys(aliases).find((prefix) => specifier.startsWith(prefix))
      const target = alias
        ? join(root, aliases[alias] ?? '', specifier.slice(alias.length))
        : specifier.startsWith('.')
          ? resolve(dirname(file), specifier)
          : null
      if (target && /\.tsx?$/.test(target)) visit(target)
    }
  }
  visit(join(root, entry))
  return seen
}
