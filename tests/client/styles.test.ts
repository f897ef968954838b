// The stylesheet's rules (client/styles/): small files, every one in a cascade layer, colours
// only from tokens.css and breakpoints only from media.css. Reads the files; the last test runs them through
// Vite's CSS pipeline with vite.config.ts, as the build and the dev server do.
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { preprocessCSS, resolveConfig } from 'vite'
import { describe, expect, it } from 'vitest'

const ROOT = join(import.meta.dirname, '..', '..')
const STYLES = join(ROOT, 'client', 'styles')
const ENTRY = 'global.css'
const TOKENS = 'tokens.css'
const MEDIA = 'media.css'
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
/** A page's own stylesheet: one `@layer pages` block, imported by its page module. */
const isPageStylesheet = (file: string) =>
  file.startsWith('pages/') && read(file).includes('@layer pages')
const PAGE_FILES = FILES.filter(isPageStylesheet)
/** Every module of the client, to find which imports a page stylesheet. */
const MODULES = readdirSync(join(ROOT, 'client'), { recursive: true, encoding: 'utf8' })
  .filter((name) => name.endsWith('.tsx'))
  .map((name) => readFileSync(join(ROOT, 'client', name), 'utf8'))
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

  it(`${ENTRY} imports every shared file once, each into a layer, in the layers' order`, () => {
    const imported = imports.map(({ file }) => file)
    expect(imported.toSorted()).toEqual(
      FILES.filter((file) => file !== ENTRY && !PAGE_FILES.includes(file)),
    )
    expect(new Set(imported).size).toBe(imported.length)
    expect(imported[0], `${MEDIA} comes first`).toBe(MEDIA)
    let previous = 0
    for (const { file, layer } of imports.slice(1)) {
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

  it(`no other file imports a stylesheet but a page's own, which imports ${MEDIA} only`, () => {
    for (const file of FILES.filter((name) => name !== ENTRY && !PAGE_FILES.includes(name))) {
      expect(source(file), file).not.toMatch(/@import\b/)
    }
    for (const file of PAGE_FILES) {
      expect(source(file).match(/@import\s+'[^']+'/g), file).toEqual([`@import '../${MEDIA}'`])
    }
  })

  it.each(PAGE_FILES)('%s is one @layer pages block, imported by a page module', (file) => {
    const rest = source(file)
      .replace(/@import\s+'[^']+'\s*;/g, '')
      .trim()
    expect(rest.startsWith('@layer pages {')).toBe(true)
    expect(rest.endsWith('}')).toBe(true)
    expect(MODULES.some((module) => module.includes(`styles/${file}'`))).toBe(true)
  })

  it(`${MEDIA} holds only the breakpoints, and ${TOKENS} only @layer tokens`, () => {
    expect(
      source(MEDIA)
        .replace(/@custom-media\s+--[\w-]+\s+[^;]+;/g, '')
        .trim(),
    ).toBe('')
    const rest = source(TOKENS).trim()
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

  it.each(FILES.filter((file) => file !== MEDIA))(
    '%s writes no breakpoint as a number (only custom media)',
    (file) => {
      const literal = mediaQueries(source(file)).filter((query) => LITERAL_WIDTH.test(query))
      expect(literal, `${file}: use a @custom-media breakpoint from ${MEDIA}`).toEqual([])
    },
  )

  it(`the dark theme in ${TOKENS} redefines colour roles of the light one, and nothing else`, () => {
    const tokens = source(TOKENS)
    const start = tokens.indexOf('@media (prefers-color-scheme: dark)')
    expect(start, 'a dark block').toBeGreaterThan(0)
    const light = declarations(tokens.slice(0, start)).map(({ property }) => property)
    const dark = declarations(tokens.slice(start, tokens.indexOf('}\n  }', start)))
    const roles = dark.filter(({ property }) => property !== 'color-scheme')
    expect(roles.length).toBeGreaterThan(10)
    for (const { property } of roles) {
      expect(property, 'a colour role').toMatch(/^--color-/)
      expect(light, `${property} is a light role too`).toContain(property)
    }
    expect(dark).toContainEqual({ property: 'color-scheme', value: 'dark' })
    expect(declarations(tokens.slice(0, start))).toContainEqual({
      property: 'color-scheme',
      value: 'light',
    })
  })

  it(`every custom media used is declared in ${MEDIA}, and every one declared is used`, () => {
    const declared = [...source(MEDIA).matchAll(/@custom-media\s+(--[\w-]+)/g)].map(
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
  const config = resolveConfig(
    { root: ROOT, configFile: join(ROOT, 'vite.config.ts'), logLevel: 'silent' },
    'build',
  )
  const processed = async (name: string) => {
    const file = join(STYLES, name)
    return (await preprocessCSS(readFileSync(file, 'utf8'), file, await config)).code
  }

  it.each(PAGE_FILES)('%s becomes one pages layer with its breakpoints resolved', async (file) => {
    const css = await processed(file)
    expect(css).not.toMatch(/@import|@custom-media/)
    expect(mediaQueries(css).filter((query) => query.includes('(--'))).toEqual([])
    expect([...css.matchAll(/@layer\s+([\w-]+)/g)].map(([, name]) => name)).toEqual(['pages'])
  })

  it('bundles every shared file into its layer and resolves every custom media', async () => {
    const css = await processed(ENTRY)
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
