import type { Page } from '@playwright/test'
import { THEME_COLORS } from '#shared/theme.ts'
import { expect, test, waitForHydration } from './fixtures.ts'
import { ONE_PAGE_PER_LAYOUT } from './page-layouts.ts'

// The display modes people set on their devices: the dark theme (prefers-color-scheme) and
// forced colours (Windows high contrast). Contrast in both themes is checked by axe and
// HTML_CodeSniffer on every page (crawl.spec.ts); here, what those engines do not see.

/** One page of every layout, English (colours do not depend on the language). */
const ONE_PER_LAYOUT = ONE_PAGE_PER_LAYOUT.filter((entry) => entry.locale === 'en')

async function open(page: Page, path: string) {
  await page.goto(path)
  await waitForHydration(page)
}

/** A CSS custom property of the root, as the current colour scheme resolves it. */
function rootToken(page: Page, name: string) {
  return page.evaluate(
    (token) => getComputedStyle(document.documentElement).getPropertyValue(token).trim(),
    name,
  )
}

/** The mean of a computed `rgb(…)` colour's channels, 0 (black) to 255 (white). */
function lightness(rgb: string) {
  const [r, g, b] = (rgb.match(/\d+/g) ?? []).map(Number) as [number, number, number]
  return (r + g + b) / 3
}

test.describe('the dark theme', () => {
  test.use({ colorScheme: 'dark' })

  test('follows the device: dark surfaces, light text, dark form controls and scrollbars', async ({
    page,
  }) => {
    await open(page, '/de/contact')
    const colours = await page.evaluate(() => {
      const body = getComputedStyle(document.body)
      const field = document.querySelector('input:not([type="hidden"])')
      if (!field) throw new Error('no input on the contact page')
      const input = getComputedStyle(field)
      return {
        scheme: getComputedStyle(document.documentElement).colorScheme,
        background: body.backgroundColor,
        text: body.color,
        inputBackground: input.backgroundColor,
      }
    })
    expect(colours.scheme).toBe('dark')
    expect(lightness(colours.background)).toBeLessThan(60)
    expect(lightness(colours.text)).toBeGreaterThan(200)
    expect(lightness(colours.inputBackground)).toBeLessThan(60)
  })

  test('tells the browser both schemes and a toolbar colour for each, the hero’s', async ({
    page,
  }) => {
    await open(page, '/')
    await expect(page.locator('meta[name="color-scheme"]')).toHaveAttribute('content', 'light dark')
    for (const [scheme, color] of Object.entries(THEME_COLORS)) {
      await expect(
        page.locator(`meta[name="theme-color"][media="(prefers-color-scheme: ${scheme})"]`),
      ).toHaveAttribute('content', color)
      await page.emulateMedia({ colorScheme: scheme as 'light' | 'dark' })
      expect(await rootToken(page, '--color-surface-dark'), scheme).toBe(color)
    }
  })

  test('paints dark from the first frame: the stylesheet decides, no script', async ({
    browser,
    baseURL,
  }) => {
    const context = await browser.newContext({
      baseURL,
      colorScheme: 'dark',
      javaScriptEnabled: false,
    })
    const page = await context.newPage()
    await page.goto('/pl/services')
    // Stylesheets are in the head and block the first paint; none waits for a media switch.
    const sheets = await page.evaluate(() =>
      [...document.querySelectorAll('link[rel="stylesheet"]')].map((link) => ({
        inHead: link.parentElement === document.head,
        media: link.getAttribute('media'),
      })),
    )
    expect(sheets.length).toBeGreaterThan(0)
    for (const sheet of sheets) expect(sheet).toEqual({ inHead: true, media: null })
    const background = await page.evaluate(() => getComputedStyle(document.body).backgroundColor)
    expect(lightness(background)).toBeLessThan(60)
    await context.close()
  })

  test('leaves photos, drawings and the share images as they are', async ({ page, request }) => {
    for (const { path } of ONE_PER_LAYOUT) {
      await open(page, path)
      const filtered = await page.evaluate(() =>
        [...document.querySelectorAll('img, svg, picture, video')]
          .filter((element) => {
            const style = getComputedStyle(element)
            return style.filter !== 'none' || style.mixBlendMode !== 'normal'
          })
          .map((element) => element.outerHTML.slice(0, 80)),
      )
      expect(filtered, path).toEqual([])
    }
    // The share image a page names is the same file in either scheme.
    await open(page, '/about')
    const shareImage = await page.locator('meta[property="og:image"]').getAttribute('content')
    await page.emulateMedia({ colorScheme: 'light' })
    await page.reload()
    expect(await page.locator('meta[property="og:image"]').getAttribute('content')).toBe(shareImage)
    const image = await request.get(new URL(shareImage ?? '').pathname)
    expect(image.headers()['content-type']).toBe('image/png')
  })
})

test.describe('forced colours (Windows high contrast)', () => {
  test.use({ colorScheme: 'dark' })

  test.beforeEach(async ({ page }) => {
    await page.emulateMedia({ forcedColors: 'active' })
  })

  /**
   * What forced colours would make invisible: a control whose only boundary was a fill, an
   * icon in a fixed colour, a current-page mark made of a fill or a shadow.
   */
  async function invisibleInForcedColours(page: Page) {
    return page.evaluate(() => {
      const problems: string[] = []
      const visible = (element: Element) => {
        const rect = element.getBoundingClientRect()
        return (
          rect.width > 0 && rect.height > 0 && getComputedStyle(element).visibility !== 'hidden'
        )
      }
      const name = (element: Element) =>
        `${element.tagName.toLowerCase()}.${element.getAttribute('class') ?? ''} "${element.textContent.trim().slice(0, 30)}"`
      const bordered = (element: Element) => {
        const style = getComputedStyle(element)
        return ['Top', 'Right', 'Bottom', 'Left'].every(
          (side) =>
            parseFloat(style.getPropertyValue(`border-${side.toLowerCase()}-width`)) >= 1 &&
            style.getPropertyValue(`border-${side.toLowerCase()}-style`) !== 'none' &&
            style.getPropertyValue(`border-${side.toLowerCase()}-color`) !== style.backgroundColor,
        )
      }
      // Buttons, the menu's call to action, form fields and the "Recommended" flag: a border.
      for (const element of document.querySelectorAll(
        '.button, .nav-cta, .tier-flag, input:not([type="hidden"]), select, textarea',
      )) {
        if (visible(element) && !element.closest('.field-trap') && !bordered(element)) {
          problems.push(`${name(element)} has no border`)
        }
      }
      // Icons drawn in the text colour, which forced colours sets.
      for (const icon of document.querySelectorAll('svg.icon')) {
        if (!visible(icon)) continue
        const style = getComputedStyle(icon)
        const paint = style.stroke !== 'none' ? style.stroke : style.fill
        if (paint !== style.color)
          problems.push(`${name(icon.parentElement ?? icon)}: icon in ${paint}`)
      }
      // Current-page marks: an underline or a border, never a fill or a shadow alone.
      for (const element of document.querySelectorAll(
        '.nav-link.active, .submenu-link.active, .lang-switcher [aria-current]',
      )) {
        if (!visible(element)) continue
        const style = getComputedStyle(element)
        const marked =
          style.textDecorationLine.includes('underline') ||
          parseFloat(style.borderBottomWidth) >= 2 ||
          parseFloat(style.fontWeight) >= 600
        if (!marked) problems.push(`${name(element)} is marked by colour only`)
      }
      return problems
    })
  }

  for (const { path } of ONE_PER_LAYOUT) {
    test(`${path}: controls, icons, badges and current-page marks stay visible`, async ({
      page,
    }) => {
      await open(page, path)
      expect(await page.evaluate(() => matchMedia('(forced-colors: active)').matches)).toBe(true)
      expect(await invisibleInForcedColours(page), 'desktop').toEqual([])
      await page.setViewportSize({ width: 375, height: 740 })
      await page.locator('.menu-toggle').click()
      const toggle = page.locator('.submenu-toggle')
      if (await toggle.isVisible()) await toggle.click()
      expect(await invisibleInForcedColours(page), '375 px, menu open').toEqual([])
    })
  }

  test('every focused control shows an outline in a system colour', async ({ page }) => {
    await open(page, '/contact')
    for (let step = 0; step < 40; step++) {
      await page.keyboard.press('Tab')
      const focus = await page.evaluate(() => {
        const element = document.activeElement
        if (!element || element === document.body) return null
        const style = getComputedStyle(element)
        return {
          name: `${element.tagName} ${element.textContent.trim().slice(0, 30)}`,
          style: style.outlineStyle,
          width: parseFloat(style.outlineWidth),
          differs: style.outlineColor !== style.backgroundColor,
        }
      })
      if (!focus) break
      expect(focus.style, focus.name).not.toBe('none')
      expect(focus.width, focus.name).toBeGreaterThanOrEqual(2)
      expect(focus.differs, focus.name).toBe(true)
    }
  })
})
