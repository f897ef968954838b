import type { Page } from '@playwright/test'

// WCAG 2.2 AA checks that axe and HTML_CodeSniffer do not make
// (docs/testing.md#what-the-test-suites-cover): text spacing (1.4.12), target size (2.5.8), focus
// not obscured and visible (2.4.11, 2.4.7). The crawl runs them on one page of every layout in
// every language (crawl.spec.ts); each measures the page as it is now.

/** The text-spacing overrides of WCAG 1.4.12 (the W3C's bookmarklet), applied to every element. */
const TEXT_SPACING = `* {
  line-height: 1.5 !important;
  letter-spacing: 0.12em !important;
  word-spacing: 0.16em !important;
}
p { margin-bottom: 2em !important; }`

/** Turns the WCAG 1.4.12 text spacing on or off: a constructed style sheet, so the CSP stays. */
export async function setTextSpacing(page: Page, on: boolean) {
  await page.evaluate(
    ({ css, on }) => {
      const others = document.adoptedStyleSheets.filter(
        (sheet) => !(sheet as CSSStyleSheet & { textSpacing?: true }).textSpacing,
      )
      if (!on) {
        document.adoptedStyleSheets = others
        return
      }
      const sheet = Object.assign(new CSSStyleSheet(), { textSpacing: true as const })
      sheet.replaceSync(css)
      document.adoptedStyleSheets = [...others, sheet]
    },
    { css: TEXT_SPACING, on },
  )
}

/** Links and buttons under 24×24 CSS px with another target within 12 px of their centre. */
export function crowdedSmallTargets(page: Page): Promise<string[]> {
  return page.evaluate(() => {
    const selector = 'a[href], button, input, select, textarea, summary, [role="button"]'
    const targets = [...document.querySelectorAll(selector)].filter((element) => {
      const style = getComputedStyle(element)
      const rect = element.getBoundingClientRect()
      return (
        style.visibility !== 'hidden' &&
        rect.width > 0 &&
        rect.height > 0 &&
        !element.closest('.visually-hidden, [aria-hidden="true"]')
      )
    })
    const rects = targets.map((element) => element.getBoundingClientRect())
    /** A link inside running text: the criterion's "inline" exception. */
    const inSentence = (element: Element) => {
      if (getComputedStyle(element).display !== 'inline') return false
      const block = element.parentElement
      return (
        block !== null && block.textContent.trim().length > element.textContent.trim().length + 10
      )
    }
    const distance = (x: number, y: number, rect: DOMRect) =>
      Math.hypot(
        Math.max(rect.left - x, 0, x - rect.right),
        Math.max(rect.top - y, 0, y - rect.bottom),
      )
    const problems: string[] = []
    targets.forEach((element, index) => {
      const rect = rects[index] as DOMRect
      if (rect.width >= 23.5 && rect.height >= 23.5) return
      if (inSentence(element) || element.matches('.skip-link')) return
      // The spacing exception: a 24 px circle on its centre touches no other target.
      const x = rect.left + rect.width / 2
      const y = rect.top + rect.height / 2
      const crowded = rects.some((other, otherIndex) => {
        if (
          otherIndex === index ||
          targets[otherIndex]?.contains(element) ||
          element.contains(targets[otherIndex] as Element)
        )
          return false
        return distance(x, y, other) < 12
      })
      if (crowded) {
        problems.push(
          `${element.tagName.toLowerCase()} "${(element.textContent.trim() || (element.getAttribute('aria-label') ?? '')).slice(0, 30)}" ${Math.round(rect.width)}×${Math.round(rect.height)}`,
        )
      }
    })
    return problems
  })
}

/** A focus stop as the page shows it. */
type FocusStop = { key: string; inView: boolean; uncovered: boolean; indicator: boolean }

/**
 * Tabs once through a page on which nothing has had focus yet and reports every stop that is
 * out of view, covered (by the sticky header) or without a visible focus indicator; `stops`
 * counts the stops.
 *
 * Each stop is measured in the page when the next Tab is pressed, before focus moves on (the
 * browser has scrolled to it and painted by then), so a stop costs one key press rather than
 * a key press and a look: the walk of 36 pages took half the time of the wcag suite before.
 */
export async function focusProblems(page: Page) {
  const presses = await page.evaluate(() => {
    const measure = (): FocusStop | null => {
      const element = document.activeElement
      if (!element || element === document.body) return null
      const rect = element.getBoundingClientRect()
      const style = getComputedStyle(element)
      const x = Math.min(Math.max(rect.left + rect.width / 2, 0), innerWidth - 1)
      const y = Math.min(Math.max(rect.top + rect.height / 2, 0), innerHeight - 1)
      const onTop = document.elementFromPoint(x, y)
      const outline = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2
      return {
        // Two fields side by side share their top: the name and the left edge tell them apart.
        key: `${element.tagName} ${element.getAttribute('name') ?? element.getAttribute('href') ?? ''} ${element.textContent.trim().slice(0, 30)} ${Math.round(rect.top + scrollY)},${Math.round(rect.left)}`,
        inView: rect.bottom > 0 && rect.top < innerHeight,
        uncovered: onTop !== null && (element === onTop || element.contains(onTop)),
        indicator: outline || style.boxShadow !== 'none',
      }
    }
    const stops: (FocusStop | null)[] = []
    addEventListener(
      'keydown',
      (event) => {
        if (event.key === 'Tab') stops.push(measure())
      },
      true,
    )
    Object.assign(window, { focusWalk: { stops, measure } })
    // Enough presses to pass every element that can take focus, and one more to leave the page.
    const focusable = document.querySelectorAll(
      'a[href], button, input, select, textarea, summary, [tabindex]:not([tabindex="-1"])',
    )
    return focusable.length + 2
  })
  for (let press = 0; press < presses; press++) await page.keyboard.press('Tab')
  const measured = await page.evaluate(() => {
    const walk = (
      window as unknown as {
        focusWalk: { stops: (FocusStop | null)[]; measure: () => FocusStop | null }
      }
    ).focusWalk
    return [...walk.stops, walk.measure()]
  })
  // The first press leaves the page's top; the walk ends where focus leaves or comes round.
  const seen = new Set<string>()
  const problems: string[] = []
  let isRound = false
  for (const focus of measured.slice(1)) {
    if (!focus || seen.has(focus.key)) {
      isRound = true
      break
    }
    seen.add(focus.key)
    if (!focus.inView) problems.push(`${focus.key}: not scrolled into view`)
    if (!focus.uncovered) problems.push(`${focus.key}: hidden by the header`)
    if (!focus.indicator) problems.push(`${focus.key}: no visible focus indicator`)
  }
  if (!isRound) problems.push(`still on the page after ${presses} presses of Tab`)
  return { stops: seen.size, problems }
}
