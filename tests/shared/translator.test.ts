import { join } from 'node:path'
import i18next, { type PostProcessorModule } from 'i18next'
import { beforeAll, describe, expect, it } from 'vitest'
import { LOCALES, type Locale } from '#shared/locales.ts'
import { TEXT_DEFAULTS, type Namespace } from '#shared/texts.ts'
import { LocaleTexts, type TextOptions } from '#shared/translator.ts'
import { typeset } from '#shared/typography.ts'
import { loadSiteTexts, type SiteTexts } from '#server/plugins/i18n.ts'

// The site's own translator (shared/translator.ts) reads i18next's format. i18next itself is
// the reference: every text of every locale, rendered both ways with the same values, must
// come out the same (plural forms, formats, nested objects, typesetting, missing keys).

type Tree = Record<string, unknown>
const PLURAL = /_(zero|one|two|few|many|other)$/
const COUNTS = [0, 1, 2, 3, 4, 5, 11, 12, 21, 22, 25, 101, 1.5]

/** The typesetting as an i18next post-processor, as the site ran it before its own translator. */
const typesetProcessor: PostProcessorModule = {
  type: 'postProcessor',
  name: 'typeset',
  process(value, _key, options: TextOptions & { lng?: string }) {
    const keep = Object.entries(options).flatMap(([name, option]) =>
      name !== 'defaultValue' && typeof option === 'string' && option.includes(' ') ? [option] : [],
    )
    return typeset(value, options.lng ?? '', keep)
  },
}

let site: SiteTexts
let reference: typeof i18next

beforeAll(async () => {
  site = await loadSiteTexts(join(import.meta.dirname, '..', '..', 'locales'))
  reference = i18next.createInstance()
  await reference.use(typesetProcessor).init({
    supportedLngs: [...LOCALES],
    fallbackLng: 'en',
    defaultNS: 'common',
    interpolation: { escapeValue: false, defaultVariables: { ...TEXT_DEFAULTS } },
    postProcess: ['typeset'],
    returnNull: false,
    initAsync: false,
    resources: Object.fromEntries(
      LOCALES.map((locale) => [locale, Object.fromEntries(namespaces(site[locale]))]),
    ),
  })
})

function namespaces(texts: LocaleTexts): [Namespace, Tree][] {
  return texts.namespaces().map((ns) => [ns, texts.bundle(ns) ?? {}])
}

/** Every key of a tree: leaves (plural forms by their base) and the objects above them. */
function keys(tree: unknown, prefix = ''): { key: string; leaf: boolean; plural: boolean }[] {
  if (typeof tree !== 'object' || tree === null) {
    const plural = PLURAL.test(prefix)
    return [{ key: prefix.replace(PLURAL, ''), leaf: true, plural }]
  }
  const own = prefix ? [{ key: prefix, leaf: false, plural: false }] : []
  return [
    ...own,
    ...Object.entries(tree).flatMap(([part, child]) =>
      keys(child, prefix ? `${prefix}.${part}` : part),
    ),
  ]
}

/** Values for the placeholders no default fills: with spaces, so typesetting must keep them. */
function valuesFor(tree: unknown): TextOptions {
  const names = JSON.stringify(tree ?? '').matchAll(/\{\{\s*([\w.]+)/g)
  const values: Record<string, unknown> = {}
  for (const [, name = ''] of names) {
    const [root = ''] = name.split('.')
    if (root in TEXT_DEFAULTS) continue
    values[name] = `/a w b ${name} 5 %`
  }
  return values
}

describe('the translator renders every text as i18next does', () => {
  it.each(LOCALES)('%s: every key, plural and object of every namespace', (locale: Locale) => {
    const texts = site[locale]
    let compared = 0
    for (const [ns, bundle] of namespaces(texts)) {
      const t = texts.lookup(ns)
      const seen = new Set<string>()
      for (const { key, leaf, plural } of keys(bundle)) {
        const id = `${key}|${leaf}`
        if (seen.has(id)) continue
        seen.add(id)
        const node = key
          .split('.')
          .reduce<unknown>((at, part) => (at as Tree | undefined)?.[part], bundle)
        const values = valuesFor(plural ? bundle : node)
        const calls: TextOptions[] = leaf
          ? plural
            ? COUNTS.map((count) => ({ ...values, count }))
            : [{}, values]
          : [{ ...values, returnObjects: true }, {}]
        for (const options of calls) {
          const expected = reference.t(key, { ...options, lng: locale, ns } as never) as unknown
          expect(t(key, options), `${locale}/${ns}:${key} ${JSON.stringify(options)}`).toEqual(
            expected,
          )
          compared += 1
        }
      }
    }
    // Several thousand renders per language: the test walked the files, not an empty list.
    expect(compared).toBeGreaterThan(1000)
  })

  it.each(LOCALES)(
    '%s: namespaces searched in order, `ns:` prefixes and missing keys',
    (locale) => {
      const t = site[locale].lookup(['common', 'service-cards'])
      const lookups = [
        'nav.home',
        'cloud-infrastructure.title',
        'service-cards:managed-it.title',
        'home:hero.title',
        'nav.nothing',
        'home:nothing.here',
      ]
      for (const key of lookups) {
        const expected = reference.t(key, { lng: locale, ns: ['common', 'service-cards'] } as never)
        expect(t(key), key).toEqual(expected)
      }
    },
  )
})
