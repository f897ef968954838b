// The pseudo-locale (shared/pseudo-locale.ts): longer, accented English between markers, with
// everything i18next reads (placeholders, tags, nesting) kept as it is.
import { describe, expect, it } from 'vitest'
import { FILE_NAMESPACES } from '#shared/namespaces.ts'
import {
  PSEUDO_END,
  PSEUDO_START,
  pseudoLocalize,
  pseudoLocalizeTree,
} from '#shared/pseudo-locale.ts'
import { flatten, markers } from '#tests/helpers/locale-checks.ts'
import { texts } from '#tests/helpers/locales.ts'

describe('pseudoLocalize', () => {
  it('marks both ends and accents the words', () => {
    expect(pseudoLocalize('Send message')).toBe('⟦Śééñd mééśśáágéé⟧')
  })

  it('keeps placeholders, formats, tags and nesting as they are', () => {
    const text =
      'In {{count}} days, {{value, number(minimumFractionDigits: 1)}} <privacyLink>policy</privacyLink> $t(common:site.name)'
    const pseudo = pseudoLocalize(text)
    expect(markers(pseudo)).toEqual(markers(text))
    expect(pseudo).toContain('{{value, number(minimumFractionDigits: 1)}}')
    expect(pseudo).toContain('$t(common:site.name)')
    expect(pseudo.startsWith(PSEUDO_START) && pseudo.endsWith(PSEUDO_END)).toBe(true)
  })

  it('keeps a tree’s shape: objects, arrays, keys', () => {
    const tree = { title: 'About', items: ['One', { text: 'Two' }], empty: [] }
    expect(pseudoLocalizeTree(tree)).toEqual({
      title: '⟦ÁÁbööüüt⟧',
      items: ['⟦ÖÖñéé⟧', { text: '⟦Twöö⟧' }],
      empty: [],
    })
  })

  it('makes the English texts about a third longer, as German and Polish often are', () => {
    let english = 0
    let pseudo = 0
    for (const ns of FILE_NAMESPACES) {
      for (const text of flatten(texts('en', ns)).values()) {
        english += text.length
        pseudo += pseudoLocalize(text).length
      }
    }
    const ratio = pseudo / english
    console.log(
      `pseudo-locale: ${english} characters of English → ${pseudo} (× ${ratio.toFixed(2)})`,
    )
    expect(ratio).toBeGreaterThan(1.25)
    expect(ratio).toBeLessThan(1.5)
  })
})
