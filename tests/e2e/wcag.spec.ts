import type { Page } from '@playwright/test'
import { expect, test, waitForHydration } from './fixtures.ts'
import { ONE_PAGE_PER_LAYOUT } from './page-layouts.ts'
import { movingElements } from '#tests/helpers/motion.ts'
import { cutOffContent as cutOffContentInPage } from '#tests/helpers/reflow.ts'

// WCAG 2.2 AA checks that axe and HTML_CodeSniffer do not make, on one page of every page
// layout in every language: reflow at 320 CSS px (1.4.10), text spacing (1.4.12), focus not
// obscured and visible (2.4.11, 2.4.7), target size (2.5.8) and reduced motion (2.3.3).

async function open(page: Page, path: string, width: number, height = 800) {
  await page.setViewportSize({ width, height })
  await page.goto(path)
  await waitForHydration(page)
  await page.evaluate(() => document.fonts.ready)
}

/** What `cutOffContentInPage` finds on the page as it is now. */
function cutOffContent(page: Page): Promise<string[]> {
  return page.evaluate(cutOffContentInPage)
}

/** The text-spacing overrides of WCAG 1.4.12 (the W3C's bookmarklet), applied to every element. */
const TEXT_SPACING = `* {
  line-height: 1.5 !important;
  letter-spacing: 0.12em !important;
  word-spacing: 0.16em !important;
}
p { margin-bottom: 2em !important; }`

/** Turns the WCAG 1.4.12 text spacing on or off: a constructed style sheet, so the CSP stays. */
async function setTextSpacing(page: Page, on: boolean) {
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
function crowdedSmallTargets(page: Page): Promise<string[]> {
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
 * Tabs once through a freshly loaded page and reports every stop that is out of view, covered
 * (by the sticky header) or without a visible focus indicator; `stops` counts the stops.
 *
 * Each stop is measured in the page when the next Tab is pressed, before focus moves on (the
 * browser has scrolled to it and painted by then), so a stop costs one key press rather than
 * a key press and a look: the walk of 36 pages took half the time of the wcag suite before.
 */
async function focusProblems(page: Page) {
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

for (const { path, page: entry, locale } of ONE_PAGE_PER_LAYOUT) {
  test.describe(`${path} (${entry.screen})`, () => {
    // One page load: Tab from its top at 1280 px, then each check at its width (the page
    // reflows as a window resized would).
    test('focus not obscured, reflow at 320 px, target size, text spacing', async ({ page }) => {
      // A page load, up to 60 Tab stops and three widths: on a busy machine more than the
      // 30 s default.
      test.setTimeout(60_000)
      await open(page, path, 1280, 720)
      await test.step('every focus stop in view, below the sticky header, visibly marked', async () => {
        const { stops, problems } = await focusProblems(page)
        expect(problems).toEqual([])
        expect(stops).toBeGreaterThan(8)
      })
      // Back to the top, as a page opens: the walk ended at its foot, where the sticky header
      // lies over the content and its targets would count as neighbours of what is under it.
      await page.evaluate(() => scrollTo(0, 0))
      await page.setViewportSize({ width: 320, height: 640 })
      await test.step('reflows at 320 CSS px: no sideways scrolling, nothing cut off', async () => {
        expect(await cutOffContent(page)).toEqual([])
        await page.locator('.menu-toggle').click()
        await expect(page.locator('.site-nav')).toBeVisible()
        const toggle = page.locator('.submenu-toggle')
        if (await toggle.isVisible()) await toggle.click()
        expect(await cutOffContent(page), 'menu open').toEqual([])
        await page.locator('.menu-toggle').click()
      })
      for (const width of [375, 1280]) {
        await test.step(`${width} px: targets of 24×24 px or spaced; text spacing cuts nothing`, async () => {
          await page.setViewportSize({ width, height: 800 })
          expect(await crowdedSmallTargets(page), 'small targets').toEqual([])
          await setTextSpacing(page, true)
          expect(await cutOffContent(page), 'with text spacing').toEqual([])
          await setTextSpacing(page, false)
        })
      }
    })

    // Motion does not depend on the language: once per layout.
    if (locale === 'en') {
      test('runs no animation or transition with reduced motion', async ({ page }) => {
        await page.emulateMedia({ reducedMotion: 'reduce' })
        await open(page, path, 1280)
        // Hover what moves when motion is allowed: buttons, cards, menu links.
        for (const selector of ['main .button', 'main .service-card', '.site-nav a']) {
          const target = page.locator(selector).first()
          // Hovering waits for the target to be stable: generous for a busy machine.
          if (await target.isVisible()) await target.hover({ timeout: 15_000 })
        }
        const moving = await page.evaluate(movingElements)
        expect(moving).toEqual([])
      })
    }
  })
}

test('a skip link is the first stop and moves focus to the main content', async ({ page }) => {
  await open(page, '/de/services', 1280)
  await page.keyboard.press('Tab')
  const skip = page.locator('.skip-link')
  await expect(skip).toBeFocused()
  await expect(skip).toBeInViewport()
  await page.keyboard.press('Enter')
  await expect(page.locator('main#main')).toBeFocused()
  await page.keyboard.press('Tab')
  expect(await page.evaluate(() => document.activeElement?.closest('main') !== null)).toBe(true)
})

test('at 200 % zoom (640×400 CSS px on a 1280×800 window) nothing is lost', async ({ page }) => {
  for (const path of ['/de', '/de/contact', '/pl/services/security-compliance']) {
    await open(page, path, 640, 400)
    expect(await cutOffContent(page), path).toEqual([])
    // The sticky header leaves most of the window to the content.
    const header = await page.locator('.site-header').boundingBox()
    expect(header?.height ?? 0, path).toBeLessThan(400 / 3)
  }
})
