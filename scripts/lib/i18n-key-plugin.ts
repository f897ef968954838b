import { readFileSync } from 'node:fs'
import { relative } from 'node:path'
import type { ExtractedKey, Plugin } from 'i18next-cli'

/**
 * What i18next-cli cannot see by reading the code, told from the tables the code reads: the
 * tool then finds missing keys (code reads, English lacks) and unused ones (English has, no
 * code reads) on the whole site, not only on the keys written out as literals.
 * `docs/decisions/i18next-cli.md` says why a plugin and not ignore lists.
 */
export type TableKeysOptions = {
  /**
   * Text replaced in the code the tool reads (never on disk), per file, so that a call names
   * its namespace: `[from, to]` as `String.replaceAll` takes them; each `from` must occur. A namespace chosen per table entry
   * (one service page for six services) is named by a stand-in from `entryNamespaces`.
   */
  rewrite: Readonly<Record<string, readonly (readonly [string | RegExp, string])[]>>
  /** Stand-in namespaces: what a key read from one stands for, as `namespace:key` per entry. */
  entryNamespaces: Readonly<Record<string, (key: string) => readonly string[]>>
  /**
   * Namespaces the server derives from others: the file keys a derived `namespace:key` is made
   * of, `undefined` for a file namespace. A part of the key the code computes is `*`, in the
   * key given and in those returned.
   */
  derived: (namespace: string, key: string) => readonly string[] | undefined
  /** Keys read through a table's values (`t(field.name)`), as `namespace:key`. */
  tableKeys: readonly string[]
}

/**
 * A part of a template-literal key the code computes: one segment in the key
 * (`members.${id}.bio`), any number at its start (`${prefix}.role`).
 */
const WILDCARD = '\u0000'

/** Every key of a locale tree; a list is one value, as i18next reads it (`returnObjects`). */
function leafKeys(tree: unknown, prefix = ''): string[] {
  if (tree === null || typeof tree !== 'object' || Array.isArray(tree)) return [prefix]
  return Object.entries(tree).flatMap(([key, value]) =>
    leafKeys(value, prefix ? `${prefix}.${key}` : key),
  )
}

/** `found` with each object that is a list in `existing` as that list. */
function listsAsIn(found: unknown, existing: unknown): Record<string, unknown> {
  const restore = (value: unknown, before: unknown): unknown => {
    if (value === null || typeof value !== 'object') return value
    if (Array.isArray(before))
      return before.map((item, index) => restore((value as Record<string, unknown>)[index], item))
    return Object.fromEntries(
      Object.entries(value).map(([key, item]) => [
        key,
        restore(
          item,
          before && typeof before === 'object'
            ? (before as Record<string, unknown>)[key]
            : undefined,
        ),
      ]),
    )
  }
  return restore(found, existing) as Record<string, unknown>
}

function splitKey(id: string): [string, string] {
  const at = id.indexOf(':')
  return [id.slice(0, at), id.slice(at + 1)]
}

export function tableKeysPlugin(options: TableKeysOptions): Plugin {
  const english = new Map<string, string[]>()
  const stale: string[] = []
  const englishKeys = (namespace: string) => {
    let keys = english.get(namespace)
    if (!keys) {
      let tree: unknown = {}
      try {
        tree = JSON.parse(readFileSync(`locales/en/${namespace}.json`, 'utf8'))
      } catch {
        // no such namespace: every key read from it is reported missing
      }
      keys = leafKeys(tree)
      english.set(namespace, keys)
    }
    return keys
  }

  return {
    name: 'table-keys',
    // i18next-cli 1.74 rebuilds a list it keeps for `returnObjects` as an object (`{ "0": … }`)
    // and would report the list unused: the comparison gets the list back. Nothing is written
    // (`npm run i18n:keys` runs `status`, never `extract`).
    afterSync(results) {
      for (const result of results) {
        result.newTranslations = listsAsIn(result.newTranslations, result.existingTranslations)
      }
    },
    onLoad(code, path) {
      const rules = options.rewrite[relative(process.cwd(), path)]
      if (!rules) return undefined
      return rules.reduce((text, [from, to]) => {
        const found = typeof from === 'string' ? text.includes(from) : text.search(from) >= 0
        if (!found) stale.push(`${path} no longer has \`${String(from)}\``)
        return text.replaceAll(from, to)
      }, code)
    },
    extractKeysFromExpression(expression) {
      if (expression.type !== 'TemplateLiteral' || expression.expressions.length === 0) return []
      const key = expression.quasis.map((quasi) => quasi.cooked ?? quasi.raw).join(WILDCARD)
      // `${ns}:${key}`: a namespace the code computes is told by `rewrite` or `tableKeys`.
      const namespace = key.slice(0, Math.max(0, key.indexOf(':')))
      return namespace.includes(WILDCARD) ? [] : [key]
    },
    onEnd(keys) {
      // The tool only warns about a failing `onLoad`; a rewrite that no longer applies fails.
      if (stale.length > 0) throw new Error(`i18next.config.ts, rewrite: ${stale.join('; ')}`)
      const add = (id: string, from: ExtractedKey) => {
        const [ns, key] = splitKey(id)
        keys.set(id, { ...from, ns, key, nsIsImplicit: false })
      }
      // 1. Keys of a stand-in namespace to each table entry's.
      for (const [id, entry] of [...keys]) {
        const expand = options.entryNamespaces[String(entry.ns)]
        if (!expand) continue
        keys.delete(id)
        for (const target of expand(entry.key)) add(target, entry)
      }
      // 2. Keys of the values of tables.
      for (const id of options.tableKeys) add(id, { key: id, defaultValue: '' })
      // 3. Derived namespaces to the files they are made from.
      for (const [id, entry] of [...keys]) {
        const sources = options.derived(String(entry.ns), entry.key.replaceAll(WILDCARD, '*'))
        if (!sources) continue
        keys.delete(id)
        for (const source of sources) add(source.replaceAll('*', WILDCARD), entry)
      }
      // 4. Template-literal keys to the English keys they match, or what a list or object
      //    under them holds (`returnObjects`).
      for (const [id, entry] of [...keys]) {
        if (!entry.key.includes(WILDCARD)) continue
        keys.delete(id)
        const ns = String(entry.ns)
        const parts = entry.key
          .split(WILDCARD)
          .map((part) => part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
        const segments = parts
          .map((part, index) =>
            index === 0 ? part : `${index === 1 && parts[0] === '' ? '.+' : '[^.]+'}${part}`,
          )
          .join('')
        const pattern = new RegExp(`^${segments}(?:_[a-z]+)?(?:\\..+)?$`)
        for (const key of englishKeys(ns)) {
          if (pattern.test(key)) add(`${ns}:${key}`, { ...entry, hasCount: false })
        }
      }
    },
  }
}
