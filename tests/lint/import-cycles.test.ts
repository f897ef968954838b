import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { describe, expect, it } from 'vitest'

// No module imports itself through others: a circle makes the load order decide what a module
// sees (an import still undefined at first use) and keeps two files from being read apart.
// Static imports and re-exports count, type-only ones too; `import()` does not (it runs later).
const ROOT = resolve(import.meta.dirname, '../..')
const FOLDERS = ['server', 'shared', 'client', 'scripts']
const { imports: ALIASES } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
  imports: Record<string, string>
}

function sources(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file))
    .map((file) => join(folder, file))
}

function resolveSpecifier(from: string, specifier: string): string | undefined {
  if (specifier.startsWith('.')) return relative(ROOT, resolve(ROOT, dirname(from), specifier))
  for (const [alias, target] of Object.entries(ALIASES)) {
    const prefix = alias.replace('*', '')
    if (specifier.startsWith(prefix)) {
      return join(target.replace('*', ''), specifier.slice(prefix.length))
    }
  }
  return undefined
}

function importGraph(files: string[]): Map<string, string[]> {
  const known = new Set(files)
  const graph = new Map<string, string[]>()
  for (const file of files) {
    const text = readFileSync(join(ROOT, file), 'utf8')
    const targets = [...text.matchAll(/^(?:import|export)\b[^'"]*?\bfrom\s*['"]([^'"]+)['"]/gms)]
      .map((match) => resolveSpecifier(file, match[1] ?? ''))
      .filter((target): target is string => target !== undefined && known.has(target))
    graph.set(file, targets)
  }
  return graph
}

/** Each circle once, as the files along it (depth-first search with a path stack). */
function circles(graph: Map<string, string[]>): string[][] {
  const found: string[][] = []
  const done = new Set<string>()
  const path: string[] = []
  const visit = (file: string) => {
    const at = path.indexOf(file)
    if (at !== -1) {
      found.push([...path.slice(at), file])
      return
    }
    if (done.has(file)) return
    path.push(file)
    for (const target of graph.get(file) ?? []) visit(target)
    path.pop()
    done.add(file)
  }
  for (const file of graph.keys()) visit(file)
  return found
}

describe('import circles', () => {
  it('finds a circle where there is one', () => {
    const graph = new Map([
      ['a.ts', ['b.ts']],
      ['b.ts', ['c.ts']],
      ['c.ts', ['a.ts']],
      ['d.ts', ['a.ts']],
    ])
    expect(circles(graph)).toEqual([['a.ts', 'b.ts', 'c.ts', 'a.ts']])
  })

  const found = circles(importGraph(FOLDERS.flatMap(sources)))

  it.each(FOLDERS)('%s/ has none', (folder) => {
    const inFolder = found.filter((circle) => circle[0]?.startsWith(`${folder}/`))
    expect(inFolder.map((circle) => circle.join(' → '))).toEqual([])
  })
})
