import type { Locale } from './locales.ts'
import type { LocaleResources, Namespace } from './texts.ts'
import { typeset } from './typography.ts'

/**
 * The site's translator: looks texts up, picks plural forms, fills in and formats values, and
 * typesets the result. It reads the i18next JSON format (`ns:key.path`, `{{name}}`,
 * `{{name, number(style: percent)}}`, `key_one`/`key_other`, `returnObjects`) and does what the
 * site's texts use of it, nothing more: a few hundred bytes in the browser instead of
 * i18next's 15 kB (README, decision of 2026-11-24). `tests/shared/translator.test.ts`
 * renders every text of every locale here and through i18next itself and expects the same
 * output.
 */

type Tree = Record<string, unknown>
/** What `t()` takes besides the key: values to fill in, `count`, `returnObjects`. */
export type TextOptions = { readonly [name: string]: unknown }
/** The untyped `t()`; typed views of it are `TFunction` (client/texts.tsx) and `Translate`. */
export type Lookup = (key: string, options?: TextOptions) => unknown

const NS_SEPARATOR = ':'
const KEY_SEPARATOR = '.'
const PLACEHOLDER = /\{\{(.+?)\}\}/g

function isTree(value: unknown): value is Tree {
  return typeof value === 'object' && value !== null
}

function find(tree: unknown, path: string): unknown {
  let node = tree
  for (const part of path.split(KEY_SEPARATOR)) {
    if (!isTree(node)) return undefined
    node = node[part]
  }
  return node
}

/** `style: percent; maximumFractionDigits: 1` → Intl options, read as i18next reads them. */
function formatOptions(list: string): Record<string, string | number | boolean> {
  const options: Record<string, string | number | boolean> = {}
  for (const option of list.split(';')) {
    const [name = '', ...rest] = option.split(':')
    const raw = rest.join(':').trim()
    if (!name.trim()) continue
    options[name.trim()] =
      raw === 'true' ? true : raw === 'false' ? false : /^\d+$/.test(raw) ? Number(raw) : raw
  }
  return options
}

/** Intl formatters by locale and format text: made once, used for every request. */
const formatters = new Map<string, (value: unknown) => string>()

function formatter(locale: string, format: string): ((value: unknown) => string) | undefined {
  const id = `${locale}|${format}`
  let cached = formatters.get(id)
  if (!cached) {
    const open = format.indexOf('(')
    const name = (open < 0 ? format : format.slice(0, open)).trim().toLowerCase()
    const options = open < 0 ? {} : formatOptions(format.slice(open + 1, format.lastIndexOf(')')))
    if (name === 'number') {
      const intl = new Intl.NumberFormat(locale, options)
      cached = (value) => intl.format(value as number)
    } else if (name === 'datetime') {
      const intl = new Intl.DateTimeFormat(locale, options)
      cached = (value) => intl.format(value as Date)
    } else {
      return undefined
    }
    formatters.set(id, cached)
  }
  return cached
}

/**
 * `text` with its `{{placeholders}}` filled from `values`, else from `defaults`, formatted for
 * `locale`. A placeholder with no value at all stays as it is; one given as `undefined` is
 * left out.
 */
export function interpolate(
  text: string,
  locale: string,
  values: TextOptions,
  defaults: TextOptions = {},
): string {
  if (!text.includes('{{')) return text
  return text.replace(PLACEHOLDER, (placeholder, inner: string) => {
    const comma = inner.indexOf(',')
    const name = (comma < 0 ? inner : inner.slice(0, comma)).trim()
    let value = find(values, name)
    if (value === undefined) value = find(defaults, name)
    if (value === undefined) return Object.hasOwn(values, name) ? '' : placeholder
    if (comma >= 0 && value !== null) {
      const format = formatter(locale, inner.slice(comma + 1).trim())
      if (format) value = format(value)
    }
    if (typeof value === 'string') return value
    // A number or yes/no as JavaScript writes it; anything else (an object) is left out.
    return typeof value === 'number' || typeof value === 'boolean' ? String(value) : ''
  })
}

/** Values a caller passed that hold a space: data, never typeset (shared/typography.ts). */
function spacedValues(values: TextOptions): string[] {
  const spaced: string[] = []
  for (const value of Object.values(values)) {
    if (typeof value === 'string' && value.includes(' ')) spaced.push(value)
  }
  return spaced
}

/** A text as a page shows it: values filled in and formatted, then typeset. */
export function renderText(
  text: string,
  locale: string,
  values: TextOptions = {},
  defaults: TextOptions = {},
): string {
  return typeset(interpolate(text, locale, values, defaults), locale, spacedValues(values))
}

/**
 * One locale's texts by namespace, with the translator over them. Texts can be added (a page's
 * namespaces loaded on navigation) or replaced (an edited file while developing); subscribers
 * hear of it, so a view can render again.
 */
export class LocaleTexts {
  readonly locale: Locale
  readonly #bundles: LocaleResources
  readonly #defaults: TextOptions
  readonly #plurals: Intl.PluralRules
  readonly #listeners = new Set<() => void>()
  #version = 0

  constructor(locale: Locale, bundles: LocaleResources, defaults: TextOptions) {
    this.locale = locale
    this.#bundles = { ...bundles }
    this.#defaults = defaults
    this.#plurals = new Intl.PluralRules(locale)
  }

  has(ns: Namespace): boolean {
    return ns in this.#bundles
  }

  /** The namespaces held, in the order they came. */
  namespaces(): Namespace[] {
    return Object.keys(this.#bundles) as Namespace[]
  }

  bundle(ns: Namespace): Tree | undefined {
    return this.#bundles[ns]
  }

  /** Add or replace a namespace's texts. */
  set(ns: Namespace, bundle: Tree): void {
    this.#bundles[ns] = bundle
    this.#version += 1
    for (const listener of this.#listeners) listener()
  }

  /** Changes with every `set` (React's `useSyncExternalStore` snapshot). */
  readonly version = (): number => this.#version

  readonly subscribe = (listener: () => void): (() => void) => {
    this.#listeners.add(listener)
    return () => this.#listeners.delete(listener)
  }

  /** `t()` over `namespaces` (the first one is searched first), `common` by default. */
  lookup(namespaces: Namespace | readonly Namespace[] = 'common'): Lookup {
    const own: readonly Namespace[] = typeof namespaces === 'string' ? [namespaces] : namespaces
    return (key, options = {}) => this.#translate(own, key, options)
  }

  #translate(namespaces: readonly Namespace[], fullKey: string, options: TextOptions): unknown {
    const split = fullKey.indexOf(NS_SEPARATOR)
    const key = split < 0 ? fullKey : fullKey.slice(split + 1)
    const searched = split < 0 ? namespaces : [fullKey.slice(0, split) as Namespace]
    const { count } = options
    const candidates = [key]
    if (typeof count === 'number') {
      candidates.unshift(`${key}_${this.#plurals.select(count)}`)
      if (count === 0) candidates.unshift(`${key}_zero`)
    }
    for (const ns of searched) {
      for (const candidate of candidates) {
        const found = find(this.#bundles[ns], candidate)
        if (found === undefined || found === null) continue
        if (typeof found === 'string') {
          return renderText(found, this.locale, options, this.#defaults)
        }
        if (!isTree(found)) return found
        // Objects only when asked for, every text inside them rendered with the same values.
        if (options.returnObjects !== true) return key
        const copy: Tree = Array.isArray(found) ? ([] as unknown as Tree) : {}
        for (const part of Object.keys(found)) {
          copy[part] = this.#translate([ns], `${candidate}${KEY_SEPARATOR}${part}`, options)
        }
        return copy
      }
    }
    return key
  }
}
