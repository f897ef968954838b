// The browser's map of locale bundles leaves out namespaces no client-side navigation loads
// (client/text-bundles.ts): each entry is JavaScript every visitor loads. A page must never need one
// of them, or its texts would be missing after a navigation.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { PAGES } from '#shared/pages.ts'
import { EVERY_PAGE_NAMESPACES } from '#shared/texts.ts'

const source = readFileSync(join(import.meta.dirname, '../../client/text-bundles.ts'), 'utf8')
const excluded = [...source.matchAll(/'!\.\/\*\/([\w-]+)\.json'/g)].map((m) => m[1] ?? '')

describe("the browser's locale bundles", () => {
  it('leave out only namespaces every page embeds or no page reads', () => {
    expect(excluded).toEqual(['common', 'mail'])
    const pageNamespaces = new Set<string>(PAGES.flatMap((page) => page.namespaces))
    for (const ns of excluded) {
      const embedded = (EVERY_PAGE_NAMESPACES as readonly string[]).includes(ns)
      expect(embedded || !pageNamespaces.has(ns), ns).toBe(true)
    }
  })
})
