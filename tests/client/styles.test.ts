// The stylesheet's rules (client/styles/): small files, every one in a cascade layer, colours
// and breakpoints only from tokens.css. Reads the files; the last test runs them through
// Vite's CSS pipeline with vite.config.ts, as the build and the dev server do.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { preprocessCSS, resolveConfig } from 'vite'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..')
const STYLES = join(ROOT, 'client', 'styles')
const ENTRY = 'global.css'
const TOKENS = 'tokens.css'
const LAYERS = ['tokens', 'base', 'layout', 'components', 'pages']
const MAX_LINES = 500

function cssFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return cssFiles(path)
    return entry.name.endsWith('.css') ? [path] : []
  })
}

const FILES = cssFiles(STYLES)
  .map((file) => relative(STYLES, file).split('\\').join('/'))
  .sort()
const read = (file: string) => readFileSync(join(STYLES, file), 'utf8')
const withoutComments = (css: string) => css.replace(/\/\*[\s\S]*?\*\//g, '')
const code = new Map(FILES.map((file) => [file, withoutComments(read(file))]))
const source = (file: string) => code.get(file) ?? ''

/** `property: value` pairs: a name right after `{` or `;`, so selectors never match. */
function declarations(css: string) {
  return [...css.matchAll(/[{;]\s*(-{0,2}[a-z][\w-]*)\s*:\s*([^;{}]*)/gi)].map(
    ([, property = '', value = '']) => ({ property, value: value.trim() }),
  )
}

/** The condition of every @media rule. */
const mediaQueries = (css: string) =>
  [...css.matchAll(/@media([^{;]+)\{/g)].map(([, query = '']) => query.trim())

const COLOUR_LITERAL =
  /#[\da-f]{3,8}\b|\b(?:rgba?|hsla?|hwb|lab|lch|oklab|oklch|color)\(|\b(?:white|black)\b/i
const LITERAL_WIDTH = /\d(?:\.\d+)?(?:px|r?em)\b|\b(?:min-|max-)?(?:device-)?(?:width|height)\b/

describe('the stylesheet files', () => {
  it('are all found', () => {
    expect(FILES).toContain(ENTRY)
    expect(FILES).toContain(TOKENS)
    expect(FILES.length).toBeGreaterThan(10)
  })

  it.each(FILES)(`%s has at most ${MAX_LINES} lines`, (file) => {
    const lines = read(file).replace(/\n$/, '').split('\n').length
    expect(lines).toBeLessThanOrEqual(MAX_LINES)
  })
})

describe('the cascade layers', () => {
  const entry = source(ENTRY)
  const imports = [...entry.matchAll(/@import\s+'([^']+)'(?:\s+layer\(([\w-]+)\))?\s*;/g)].map(
    ([, path = '', layer]) => ({ file: path.replace(/^\.\//, ''), layer }),
  )

  it(`${ENTRY} declares the layer order first and holds nothing but imports`, () => {
    expect(entry.trim().startsWith(`@layer ${LAYERS.join(', ')};`)).toBe(true)
    const rest = entry
      .replace(`@layer ${LAYERS.join(', ')};`, '')
      .replace(/@import\s+'[^']+'(?:\s+layer\([\w-]+\))?\s*;/g, '')
    expect(rest.trim()).toBe('')
  })

  it(`${ENTRY} imports every other file once, each into a layer, in the layers' order`, () => {
    const imported = imports.map(({ file }) => file)
    expect(imported.toSorted()).toEqual(FILES.filter((file) => file !== ENTRY))
    expect(new Set(imported).size).toBe(imported.length)
    let previous = 0
    for (const { file, layer } of imports) {
      if (file === TOKENS) {
        // Unlayered: its @custom-media must stay at the top level, and it puts its custom
        // properties into @layer tokens itself (checked below).
        expect(layer, `${TOKENS} is imported without layer()`).toBeUndefined()
      } else {
        expect(LAYERS, `${file} is imported into a layer`).toContain(layer)
      }
      const index = LAYERS.indexOf(file === TOKENS ? 'tokens' : (layer ?? ''))
      expect(index, `${file} comes before a file of an earlier layer`).toBeGreaterThanOrEqual(
        previous,
      )
      previous = index
    }
  })

  it('no other file imports a stylesheet', () => {
    for (const file of FILES.filter((name) => name !== ENTRY)) {
      expect(source(file), file).not.toMatch(/@import\b/)
    }
  })

  it(`${TOKENS} holds its breakpoints at the top level and everything else in @layer tokens`, () => {
    const rest = source(TOKENS)
      .replace(/@custom-media\s+--[\w-]+\s+[^;]+;/g, '')
      .trim()
    expect(rest.startsWith('@layer tokens {')).toBe(true)
    // The block that opens first closes last.
    let depth = 0
    for (let index = 0; index < rest.length; index++) {
      if (rest[index] === '{') depth++
      if (rest[index] === '}' && --depth === 0) expect(index).toBe(rest.length - 1)
    }
    expect(depth).toBe(0)
  })
})

describe('tokens', () => {
  it.each(FILES.filter((file) => file !== TOKENS))('%s has no colour literal', (file) => {
    const literals = declarations(source(file))
      .filter(({ value }) => COLOUR_LITERAL.test(value))
      .map(({ property, value }) => `${property}: ${value}`)
    expect(literals, `${file}: use a colour role from ${TOKENS}`).toEqual([])
  })

  it.each(FILES.filter((file) => file !== TOKENS))(
    '%s writes no breakpoint as a number (only custom media)',
    (file) => {
      const literal = mediaQueries(source(file)).filter((query) => LITERAL_WIDTH.test(query))
      expect(literal, `${file}: use a @custom-media breakpoint from ${TOKENS}`).toEqual([])
    },
  )

  it(`every custom media used is declared in ${TOKENS}, and every one declared is used`, () => {
    const declared = [...source(TOKENS).matchAll(/@custom-media\s+(--[\w-]+)/g)].map(
      ([, name]) => name,
    )
    const used = new Set(
      FILES.flatMap((file) =>
        mediaQueries(source(file)).flatMap((query) =>
          [...query.matchAll(/\((--[\w-]+)\)/g)].map(([, name]) => name),
        ),
      ),
    )
    expect(declared.length).toBeGreaterThan(0)
    expect([...used].filter((name) => !declared.includes(name))).toEqual([])
    expect(declared.filter((name) => !used.has(name))).toEqual([])
  })

  it('every var() names a custom property a stylesheet declares', () => {
    const declared = new Set(
      FILES.flatMap((file) =>
        declarations(source(file))
          .map(({ property }) => property)
          .filter((property) => property.startsWith('--')),
      ),
    )
    const missing = FILES.flatMap((file) =>
      [...source(file).matchAll(/var\(\s*(--[\w-]+)\s*\)/g)]
        .map(([, name = '']) => name)
        .filter((name) => !declared.has(name))
        .map((name) => `${file}: ${name}`),
    )
    expect(missing).toEqual([])
  })
})

describe("Vite's CSS pipeline (vite.config.ts)", () => {
  it('bundles every file into its layer and resolves every custom media', async () => {
    const config = await resolveConfig(
      { root: ROOT, configFile: join(ROOT, 'vite.config.ts'), logLevel: 'silent' },
      'build',
    )
    const file = join(STYLES, ENTRY)
    const { code: css } = await preprocessCSS(readFileSync(file, 'utf8'), file, config)
    expect(css).not.toMatch(/@import|@custom-media/)
    const queries = mediaQueries(css)
    expect(queries.length).toBeGreaterThan(10)
    expect(queries.filter((query) => query.includes('(--'))).toEqual([])
    // Each file becomes an @layer block of its own; in the order the entry declares.
    const layers = [...css.matchAll(/@layer\s+([\w-]+)\s*\{/g)].map(([, name]) => name)
    expect([...new Set(layers)]).toEqual(LAYERS)
    expect(layers.map((name) => LAYERS.indexOf(name ?? ''))).toEqual(
      layers.map((name) => LAYERS.indexOf(name ?? '')).toSorted((a, b) => a - b),
    )
  })
})
