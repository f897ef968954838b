import { LOCALIZED_PAGES } from '#shared/pages.ts'
import { expect, test } from './fixtures.ts'

// Reader modes, search snippets, screen readers' browse mode and copy and paste see a page's
// HTML without its stylesheets. Every page must read right there too: no two elements that
// flow inline by default may run their words together ("Schnelle RückmeldungWir melden uns"),
// which is what a title and its text in spans styled as blocks do: texts under a title are
// blocks, controls in a row have a space between (docs/decisions/titles-and-texts-as-blocks.md).
// Each page as the server sends it (no JavaScript), in Chromium with every stylesheet and style
// attribute removed.

// One context and page for the worker's tests, reset between them (crawl.spec.ts,
// docs/decisions/one-page-per-worker.md).
test.use({ javaScriptEnabled: false, reuseContext: true })

for (const { path } of LOCALIZED_PAGES) {
  test(`${path} reads right without styles`, async ({ page }) => {
    const response = await page.goto(path)
    expect(response?.status()).toBe(200)
    const joins = await page.evaluate(() => {
      for (const sheet of document.querySelectorAll('link[rel~="stylesheet"], style')) {
        sheet.remove()
      }
      for (const styled of document.querySelectorAll('[style]')) styled.removeAttribute('style')

      /** Elements that show no text of their own (their alt text is not read inline). */
      const OPAQUE = new Set(['IMG', 'SVG', 'svg', 'INPUT', 'SELECT', 'TEXTAREA', 'IFRAME'])
      const isShown = (node: Node) =>
        node.nodeType === Node.TEXT_NODE
          ? (node.textContent ?? '') !== ''
          : node instanceof Element && getComputedStyle(node).display !== 'none'
      const isInline = (node: Node) =>
        node.nodeType === Node.TEXT_NODE ||
        (node instanceof Element && getComputedStyle(node).display.startsWith('inline'))
      /** The text a node shows: hidden parts left out, a line break as a line break. */
      const shownText = (node: Node): string => {
        if (node.nodeType === Node.TEXT_NODE) return node.textContent ?? ''
        if (!(node instanceof Element) || !isShown(node) || OPAQUE.has(node.tagName)) return ''
        if (node.tagName === 'BR') return '\n'
        return [...node.childNodes].map(shownText).join('')
      }
      const describe = (node: Node) =>
        node instanceof Element
          ? `<${[node.tagName.toLowerCase(), ...node.classList].join('.')}>`
          : 'text'

      const found: string[] = []
      for (const parent of document.body.querySelectorAll('*')) {
        const children = [...parent.childNodes].filter(isShown)
        for (let index = 1; index < children.length; index++) {
          const before = children[index - 1]
          const after = children[index]
          if (!before || !after) continue
          // Two text nodes are one sentence the page wrote; a block starts its own line.
          if (before.nodeType === Node.TEXT_NODE && after.nodeType === Node.TEXT_NODE) continue
          if (!isInline(before) || !isInline(after)) continue
          const end = shownText(before)
          const start = shownText(after)
          if (/[\p{L}\p{N}.,:;!?)]$/u.test(end) && /^[\p{L}\p{N}(]/u.test(start)) {
            found.push(
              `${describe(before)} + ${describe(after)} in ${describe(parent)}: ` +
                `"${end.slice(-25)}" + "${start.slice(0, 25)}"`,
            )
          }
        }
      }
      return found
    })
    expect(joins, 'words of neighbouring elements run together without styles').toEqual([])
  })
}
