import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { PNG } from 'pngjs'
import { expect } from 'vitest'
import {
  contactFormPath,
  formFields,
  type ContactFieldName,
  type ContactFormId,
} from '#shared/contact-fields.ts'
import { localizePath, type Locale } from '#shared/locales.ts'
import type { PageId } from '#shared/pages.ts'
import { SERVICES, servicePath } from '#shared/services.ts'
import { movingElements } from '#tests/helpers/motion.ts'
import { cutOffContent } from '#tests/helpers/reflow.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import { eventually } from '#tests/helpers/eventually.ts'
import { sumOf } from '#tests/helpers/metrics.ts'
import { PERSON_PAUSE_MS } from '#tests/helpers/form-token.ts'
import { get, shown, texts, titleText } from '#tests/helpers/locales.ts'
import { startSmtpServer } from '#tests/helpers/smtp.ts'
import { acceptedValue } from '#tests/helpers/contact-samples.ts'
import { EngineUnresponsive, type Engine } from './drivers.ts'
import {
  FRAME_PATH,
  noViewTransitionRunning,
  startProbeProxy,
  takeProblems,
  viewTransitionsStarted,
  type ProbeProxy,
} from './probe-proxy.ts'

/**
 * The journeys every engine takes, written once against the drivers' common interface
 * (drivers.ts). The site is the real app on the production build, behind the probe proxy.
 */
export type Site = {
  origin: string
  proxy: ProbeProxy
  app: FastifyInstance
  /** The SMTP server the app delivers leads to. */
  smtp: Awaited<ReturnType<typeof startSmtpServer>>
  close(): Promise<void>
}

export async function startSite(env: Record<string, string> = {}): Promise<Site> {
  const smtp = await startSmtpServer()
  const app = await buildTestApp({ CONTACT_RATE_MAX: '1000', SMTP_URL: smtp.url, ...env })
  const upstream = await app.listen({ port: 0, host: '127.0.0.1' })
  const proxy = await startProbeProxy(upstream)
  return {
    origin: proxy.origin,
    proxy,
    app,
    smtp,
    async close() {
      await proxy.close()
      await app.close()
      await smtp.stop()
    },
  }
}

const TIMEOUT_MS = 20_000

/**
 * Polls a condition in the page until it holds (a busy machine may take seconds). While a
 * navigation replaces the document a look may fail; the next one sees the new page.
 */
export async function until<A extends unknown[]>(
  engine: Engine,
  what: string,
  condition: (...args: A) => boolean,
  ...args: A
) {
  const started = Date.now()
  let lastError: unknown = null
  for (;;) {
    try {
      if (await engine.run(condition, ...args)) return
      lastError = null
    } catch (error) {
      if (error instanceof EngineUnresponsive) throw error
      lastError = error
    }
    if (Date.now() - started > TIMEOUT_MS) {
      throw new Error(`${engine.name}: still not ${what} after ${TIMEOUT_MS / 1000} s`, {
        cause: lastError,
      })
    }
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

function isHydrated() {
  return document.documentElement.dataset.hydrated === 'true'
}

/**
 * Loads a path at a width and waits until React has hydrated it (with the page's scripts off:
 * until it has loaded) and its requests are done. Below the driver's narrowest window the
 * page is in a frame of that width (probe-proxy.ts), and `run` runs in the frame.
 */
export async function open(engine: Engine, site: Site, path: string, width = 1280) {
  if (width >= engine.minWidth) {
    await engine.setWidth(width)
    await engine.goto(`${site.origin}${path}`)
  } else {
    const src = encodeURIComponent(path)
    await engine.gotoFramed(`${site.origin}${FRAME_PATH}?src=${src}&width=${width}`)
    await until(engine, 'loaded in its frame', () => document.readyState === 'complete')
    expect(await engine.run(() => document.documentElement.clientWidth)).toBe(width)
  }
  if (engine.options.javaScript) await until(engine, 'hydrated', isHydrated)
  await site.proxy.settled()
}

/** What the page and the proxy noted since the last look: script errors, CSP, failed requests. */
export async function expectNoProblems(engine: Engine, site: Site, where: string) {
  // With the page's scripts off there is no probe: the proxy's record is all there is.
  const problems = engine.options.javaScript ? await engine.run(takeProblems) : []
  const failures = site.proxy.takeFailures()
  expect({ problems, failures }, `${engine.name}: ${where}`).toEqual({ problems: [], failures: [] })
}

/** A page as a visitor first sees it: rendered, hydrated, clean, with one `h1`. */
export async function pageJourney(engine: Engine, site: Site, path: string) {
  await open(engine, site, path)
  await expectNoProblems(engine, site, path)
  expect(await engine.run(() => document.querySelectorAll('h1').length), 'h1 elements').toBe(1)
}

/** After the layout settles: two frames, and the web fonts in. */
function settledLayout() {
  return document.fonts.ready.then(
    () =>
      new Promise<boolean>((resolve) =>
        requestAnimationFrame(() => requestAnimationFrame(() => resolve(true))),
      ),
  )
}

/**
 * WCAG 1.4.10: at 320 CSS px nothing scrolls sideways or is cut off. The page as loaded, its
 * window narrowed; where the driver cannot make a window that narrow, the page in a frame of
 * 320 px (probe-proxy.ts).
 */
export async function reflowJourney(engine: Engine, site: Site, path: string) {
  const width = 320
  if (engine.minWidth <= width) {
    await engine.setWidth(width)
  } else {
    await open(engine, site, path, width)
  }
  await engine.run(settledLayout)
  const problems = await engine.run(cutOffContent)
  await engine.setWidth(1280)
  expect(problems, `${engine.name}: ${path} at 320 CSS px`).toEqual([])
  await expectNoProblems(engine, site, `${path} at 320 px`)
}

/** A mark on the window: a client-side navigation keeps it, a full page load loses it. */
function markWindow() {
  Object.assign(window, { __sameDocument: true })
  return true
}

function isSameDocument() {
  return (window as unknown as { __sameDocument?: boolean }).__sameDocument === true
}

function isShowing(pathname: string, title: string) {
  return location.pathname === pathname && document.title === title && isHydratedPage()
  function isHydratedPage() {
    return document.documentElement.dataset.hydrated === 'true'
  }
}

/**
 * Waits until the page at `path` is shown, with its own title (React renders it per page),
 * and the view transition to it, if any, has ended.
 */
async function expectPage(engine: Engine, id: PageId, locale: Locale, path: string) {
  await until(engine, `showing ${path}`, isShowing, path, titleText(id, locale))
  await until(engine, 'done with the view transition', noViewTransitionRunning)
}

function isVisible(selector: string) {
  const element = document.querySelector(selector)
  if (!element) return false
  const rect = element.getBoundingClientRect()
  return rect.width > 0 && rect.height > 0 && getComputedStyle(element).visibility !== 'hidden'
}

function isMenuOpen() {
  return document.querySelector('.menu-toggle')?.getAttribute('aria-expanded') === 'true'
}

/**
 * Client-side navigation through the header: at 1280 px its links, at 375 px the menu button,
 * the services submenu and a service; then back and forward. Each page is the browser's own
 * rendering (the window keeps its mark), titled as its texts say. A view transition runs on
 * each click where the engine has them, unless the visitor prefers reduced motion.
 */
export async function navigationJourney(engine: Engine, site: Site, width: 375 | 1280) {
  const locale: Locale = 'de'
  const service = SERVICES[0]
  const home = localizePath(locale, '/')
  const about = localizePath(locale, '/about')
  const servicePage = localizePath(locale, servicePath(service.slug))
  const before = await viewsCounted(site)
  await open(engine, site, home, width)
  const opened = await viewsCounted(site)
  // The document load is a view (docs/insight.md#insight-which-pages-bring-leads); a page in the
  // proxy's frame is none.
  if (width >= engine.minWidth) expect(opened - before, 'the document load as a view').toBe(1)
  await engine.run(markWindow)
  const isMobile = width < 800
  expect(await engine.run(isVisible, '.menu-toggle'), 'the menu button').toBe(isMobile)

  if (isMobile) {
    await engine.click('.menu-toggle')
    await until(engine, 'showing the menu', isVisible, `.site-nav a[href="${about}"]`)
  }
  await engine.click(`.site-nav a[href="${about}"]`)
  await expectPage(engine, 'about', locale, about)
  if (isMobile) expect(await engine.run(isMenuOpen), 'menu after a click').toBe(false)

  if (isMobile) {
    await engine.click('.menu-toggle')
    await until(engine, 'showing the menu', isVisible, '.submenu-toggle')
    await engine.click('.submenu-toggle')
  } else {
    // The submenu opens on its button at every width (hover opens it too, on a pointer).
    await engine.click('.submenu-toggle')
  }
  const serviceLink = `.submenu a[href="${servicePage}"]`
  await until(engine, 'showing the services submenu', isVisible, serviceLink)
  await engine.click(serviceLink)
  await expectPage(engine, `service-${service.slug}`, locale, servicePage)

  await engine.run(() => history.back())
  await expectPage(engine, 'about', locale, about)
  await engine.run(() => history.back())
  await expectPage(engine, 'home', locale, home)
  await engine.run(() => history.forward())
  await expectPage(engine, 'about', locale, about)
  expect(await engine.run(isSameDocument), 'one document throughout').toBe(true)

  const hasViewTransitions = await engine.run(() => 'startViewTransition' in document)
  const started = await engine.run(viewTransitionsStarted)
  if (hasViewTransitions && !engine.options.reducedMotion) {
    // The two clicks; history traversal shows the page without one.
    expect(started, 'view transitions started').toBeGreaterThanOrEqual(2)
  } else {
    expect(started, 'view transitions started').toBe(0)
  }
  await site.proxy.settled()
  expect(await viewsCounted(site), 'navigations inside the site counted as views').toBe(opened)
  await expectNoProblems(engine, site, `navigation at ${width} px`)
}

/** Every page view the site's app has counted (docs/insight.md#insight-which-pages-bring-leads). */
async function viewsCounted(site: Site): Promise<number> {
  return sumOf((await site.app.inject({ url: '/metrics' })).body, 'page_views_total')
}

/**
 * The language switcher: a full load of the same page in the other language, the choice kept
 * in the cookie, which `/` then follows.
 */
export async function languageJourney(engine: Engine, site: Site) {
  await open(engine, site, '/de/about')
  await engine.run(markWindow)
  await engine.click('.site-nav .lang-switcher a[hreflang="pl"]')
  await expectPage(engine, 'about', 'pl', '/pl/about')
  expect(await engine.run(isSameDocument), 'a new document').toBe(false)
  expect(await engine.run(() => document.documentElement.lang)).toBe('pl')
  expect(await engine.run(() => document.cookie)).toContain('i18n_redirected=pl')
  await open(engine, site, '/')
  expect(new URL(await engine.url()).pathname, '/ follows the cookie').toBe('/pl')
  await engine.run(() => {
    document.cookie = 'i18n_redirected=; Max-Age=0; Path=/'
  })
  await expectNoProblems(engine, site, 'language switch')
}

/** What a person types into fields the forms require; any other from the field table. */
const SAMPLE: Partial<Record<ContactFieldName, string>> = {
  name: 'Ada Lovelace',
  email: 'ada@example.com',
  service: 'other',
  subject: 'Lagersoftware',
  message: 'Wir möchten unsere Lagersoftware in diesem Jahr modernisieren.',
}

/** Fills the required fields of a form from the field table, the message as given. */
async function fillForm(engine: Engine, form: ContactFormId, message: string) {
  for (const field of formFields(form)) {
    if (!field.isRequired) continue
    const value =
      field.name === 'message'
        ? message
        : (SAMPLE[field.name] ?? acceptedValue(field, form, `Sample ${field.name}`))
    const selector = `form.contact-form [name="${field.name}"]`
    if (field.kind === 'select') await engine.select(selector, value)
    else await engine.fill(selector, value)
  }
}

function textOf(selector: string) {
  return document.querySelector(selector)?.textContent.trim() ?? null
}

/** Waits until the SMTP server has a message whose text holds `words`. */
async function expectDelivered(site: Site, words: string) {
  await eventually(
    () => site.smtp.received.some(({ mail }) => (mail.text ?? '').includes(words)),
    TIMEOUT_MS,
  )
}

function common(locale: Locale, path: string): string {
  return shown(get(texts(locale, 'common'), path), locale)
}

/**
 * The form with JavaScript: sent empty, the first field in error gets focus and its message in
 * the page's language; filled in, the message is accepted and reaches the SMTP server.
 */
export async function formJourney(
  engine: Engine,
  site: Site,
  { form, locale }: { form: ContactFormId; locale: Locale },
) {
  const path = contactFormPath(form, locale)
  await open(engine, site, path)
  const submit = 'form.contact-form button[type="submit"]'
  await engine.click(submit)
  await until(engine, 'showing field errors', isVisible, 'form.contact-form .field-error')
  const focused = await engine.run(() => ({
    name: document.activeElement?.getAttribute('name'),
    invalid: document.activeElement?.getAttribute('aria-invalid'),
    error: document.getElementById(
      document.activeElement?.getAttribute('aria-describedby')?.split(' ')[0] ?? '',
    )?.textContent,
  }))
  expect(focused).toEqual({
    name: 'name',
    invalid: 'true',
    error: common(locale, 'form.errors.required'),
  })

  const message = `${engine.name} ${form} ${locale}: ${SAMPLE.message} ${Date.now()}`
  await fillForm(engine, form, message)
  // As long as a person takes at least: a form sent sooner is a bot's (dropped, unseen).
  await new Promise((resolve) => setTimeout(resolve, PERSON_PAUSE_MS))
  await engine.click(submit)
  await until(
    engine,
    'showing the success message',
    (selector, text) => document.querySelector(selector)?.textContent.trim() === text,
    'form.contact-form [role="status"]',
    common(locale, 'form.status.success'),
  )
  expect(await engine.run(textOf, 'form.contact-form .field-error')).toBeNull()
  await expectDelivered(site, message)
  await expectNoProblems(engine, site, `${path} form`)
}

/**
 * The form with the page's scripts off: a plain post answered with the page, its errors and
 * the input; corrected, the success message on the form's page, and the lead delivered.
 */
export async function plainFormJourney(engine: Engine, site: Site) {
  const locale: Locale = 'pl'
  const path = contactFormPath('contact', locale)
  await open(engine, site, path)
  const message = 'form.contact-form [name="message"]'
  await fillForm(engine, 'contact', 'Za krótko')
  await new Promise((resolve) => setTimeout(resolve, PERSON_PAUSE_MS))
  await engine.click('form.contact-form button[type="submit"]')
  await until(engine, 'answered', () => location.pathname === '/api/contact')
  await site.proxy.settled()
  expect(site.proxy.takeFailures()).toEqual(['POST /api/contact: 400'])
  expect(
    await engine.run(
      (selector) => document.querySelector<HTMLTextAreaElement>(selector)?.value,
      message,
    ),
  ).toBe('Za krótko')
  expect(await engine.run(textOf, 'form.contact-form .field-error')).toBe(
    shown(
      String(get(texts(locale, 'common'), 'form.errors.tooShort')).replace('{{min}}', '10'),
      locale,
    ),
  )

  const text = `${engine.name} bez JavaScriptu: Chcemy przenieść nasz system ERP ${Date.now()}`
  await engine.fill(message, text)
  await engine.click('form.contact-form button[type="submit"]')
  await until(
    engine,
    'back on the form page',
    (to) => location.pathname + location.search === to,
    `${path}?sent=contact`,
  )
  expect(await engine.run(textOf, 'form.contact-form [role="status"]')).toBe(
    common(locale, 'form.status.success'),
  )
  await expectDelivered(site, text)
  await expectNoProblems(engine, site, `${path} without JavaScript`)
}

/**
 * In the page: how light the page's background is, and text whose contrast with what lies
 * behind it is under WCAG's 4.5:1 (3:1 for large text), in the colours this engine computed.
 * Colours are read back from a canvas, so every notation the style sheets use
 * (`light-dark()`, `oklch()`, `color-mix()`) arrives as sRGB bytes; a background under an image or gradient is not judged (axe's rule in Chromium
 * judges those pages in both themes).
 */
export function pageColours(): { background: number; lowContrast: string[] } {
  const canvas = document.createElement('canvas')
  canvas.width = canvas.height = 1
  const context = canvas.getContext('2d', { willReadFrequently: true })
  if (!context) return { background: -1, lowContrast: ['no 2D canvas'] }
  const rgba = (color: string): [number, number, number, number] => {
    context.clearRect(0, 0, 1, 1)
    context.fillStyle = color
    context.fillRect(0, 0, 1, 1)
    const [r = 0, g = 0, b = 0, a = 0] = context.getImageData(0, 0, 1, 1).data
    return [r, g, b, a / 255]
  }
  const over = (top: number[], bottom: number[]) =>
    [0, 1, 2].map((i) => (top[i] ?? 0) * (top[3] ?? 1) + (bottom[i] ?? 0) * (1 - (top[3] ?? 1)))
  /** What lies behind an element: its and its ancestors' background colours, blended; null under an image. */
  const backdrop = (element: Element): number[] | null => {
    const layers: number[][] = []
    for (let node: Element | null = element; node; node = node.parentElement) {
      const style = getComputedStyle(node)
      if (style.backgroundImage !== 'none') return null
      const colour = rgba(style.backgroundColor)
      if (colour[3] > 0) layers.push(colour)
      if (colour[3] === 1) break
    }
    const canvasColour = rgba(getComputedStyle(document.documentElement).backgroundColor)
    let result = canvasColour[3] > 0 ? canvasColour.slice(0, 3) : [255, 255, 255]
    for (const layer of layers.reverse()) result = over(layer, result)
    return result
  }
  const luminance = (rgb: number[]) => {
    const [r = 0, g = 0, b = 0] = rgb.map((value) => {
      const c = value / 255
      return c <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4
    })
    return 0.2126 * r + 0.7152 * g + 0.0722 * b
  }
  const problems: string[] = []
  for (const element of document.body.querySelectorAll('*')) {
    const hasText = [...element.childNodes].some(
      (node) => node.nodeType === Node.TEXT_NODE && (node.textContent ?? '').trim() !== '',
    )
    if (!hasText || element.closest('.visually-hidden, [hidden], [aria-hidden="true"]')) continue
    if (element.closest('.skip-link, :disabled')) continue
    const rect = element.getBoundingClientRect()
    const style = getComputedStyle(element)
    if (rect.width === 0 || rect.height === 0 || style.visibility === 'hidden') continue
    const behind = backdrop(element)
    if (!behind) continue
    const text = over(rgba(style.color), behind)
    const [light, dark] = [luminance(text), luminance(behind)].sort((a, b) => b - a)
    const ratio = ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05)
    const size = parseFloat(style.fontSize)
    const isLarge = size >= 24 || (size >= 18.66 && Number(style.fontWeight) >= 700)
    if (ratio < (isLarge ? 3 : 4.5) - 0.05) {
      problems.push(
        `${element.tagName.toLowerCase()} "${element.textContent.trim().slice(0, 30)}" ${ratio.toFixed(2)}:1`,
      )
    }
  }
  // How light the page's own background is, 0 (black) to 1 (white).
  const [r, g, b] = rgba(getComputedStyle(document.body).backgroundColor)
  return { background: (r + g + b) / 3 / 255, lowContrast: problems }
}

/**
 * The theme the visitor's system asks for: the page's colour scheme follows it (dark: light
 * text on a dark page), and its text keeps its contrast in this engine's colours.
 */
export async function themeJourney(engine: Engine, site: Site, path: string) {
  await open(engine, site, path)
  const dark = engine.options.colorScheme === 'dark'
  expect(
    await engine.run(() => (matchMedia('(prefers-color-scheme: dark)').matches ? 'dark' : 'light')),
    'prefers-color-scheme',
  ).toBe(engine.options.colorScheme)
  const colours = await engine.run(pageColours)
  if (dark) expect(colours.background, `${path}: the page's background`).toBeLessThan(0.3)
  else expect(colours.background, `${path}: the page's background`).toBeGreaterThan(0.7)
  expect(colours.lowContrast, `${engine.name}: ${path} contrast`).toEqual([])
  await expectNoProblems(engine, site, `${path} in the ${engine.options.colorScheme} theme`)
}

/**
 * On the page `themeJourney` opened: with reduced motion nothing has a transition or an
 * animation; without it the buttons' colour fades are there (so the look can find them).
 */
export async function motionJourney(engine: Engine, path: string) {
  expect(await engine.run(() => matchMedia('(prefers-reduced-motion: reduce)').matches)).toBe(
    engine.options.reducedMotion,
  )
  const moving = await engine.run(movingElements)

  if (engine.options.reducedMotion) expect(moving, `${path}: moving`).toEqual([])
  else expect(moving.length, `${path}: buttons fade their colours`).toBeGreaterThan(0)
}

/**
 * Screenshots of a page at 1280 and 375 px into `folder`, for a person to look at
 * (`ENGINE_SCREENSHOTS`, docs/testing.md#browser-engines). WebKit's driver shows only the viewport:
 * its pictures are the first 800 px of the page, at 375 px the frame cut out of the window.
 */
export async function screenshotJourney(engine: Engine, site: Site, path: string, folder: string) {
  mkdirSync(folder, { recursive: true })
  const name = `${engine.name}-${engine.options.colorScheme}-${path.replace(/\W+/g, '-').replace(/^-|-$/g, '') || 'home'}`
  for (const width of [1280, 375]) {
    await open(engine, site, path, width)
    await engine.run(settledLayout)
    const file = join(folder, `${name}-${width}.png`)
    await engine.screenshot(file)
    if (width < engine.minWidth) {
      const shot = PNG.sync.read(readFileSync(file))
      const cut = new PNG({ width, height: shot.height })
      PNG.bitblt(shot, cut, 0, 0, width, shot.height, 0, 0)
      writeFileSync(file, PNG.sync.write(cut))
    }
  }
}
