import { chromium, type Browser, type Page, type Request } from '@playwright/test'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '#tests/helpers/chromium.ts'
import { expect, reportConnection, test, waitForHydration } from './fixtures.ts'

// Navigations a visitor feels (docs/architecture.md#navigations-a-visitor-feels): pages loaded
// ahead on intent, view transitions, and the back/forward cache. The times are printed, not
// asserted: they are measurements on a throttled connection, not pass marks.

/** A slow phone connection: 400 ms round trip, 400 kbit/s each way. */
const SLOW = { latency: 400, throughput: (400 * 1024) / 8 }

/** The about page's own files: its module and its texts (`about`, `team` namespaces). */
const ABOUT_FILES = /\/assets\/(about-page|about|team)-[\w-]+\.js$/

async function throttle(page: Page) {
  await reportConnection(page, { effectiveType: '3g' })
  const cdp = await page.context().newCDPSession(page)
  await cdp.send('Network.enable')
  await cdp.send('Network.emulateNetworkConditions', {
    offline: false,
    latency: SLOW.latency,
    downloadThroughput: SLOW.throughput,
    uploadThroughput: SLOW.throughput,
    connectionType: 'cellular3g',
  })
}

/** Requests of the page whose URL matches, as they happen (`finished`: as they complete). */
function recordRequests(
  page: Page,
  pattern: RegExp,
  event: 'request' | 'requestfinished' = 'request',
): string[] {
  const seen: string[] = []
  const record = (request: Request) => {
    if (pattern.test(request.url())) seen.push(new URL(request.url()).pathname)
  }
  if (event === 'request') page.on('request', record)
  else page.on('requestfinished', record)
  return seen
}

/**
 * Clicks the link in the page and returns the milliseconds until `heading` is in the document
 * (`dom`: the router and React's work) and until the first animation frame with it (`shown`:
 * also the view transition's first frame, which Chromium without a GPU composites slowly).
 */
async function clickAndTime(
  page: Page,
  link: string,
  heading: string,
): Promise<{ dom: number; shown: number }> {
  return page.evaluate(
    ([linkSelector, headingSelector]) =>
      new Promise<{ dom: number; shown: number }>((resolve) => {
        const started = performance.now()
        let dom = 0
        const observer = new MutationObserver(() => {
          if (!dom && document.querySelector(headingSelector)) dom = performance.now() - started
        })
        observer.observe(document.body, { childList: true, subtree: true })
        const check = () => {
          if (document.querySelector(headingSelector)) {
            observer.disconnect()
            const shown = performance.now() - started
            resolve({ dom: dom || shown, shown })
          } else requestAnimationFrame(check)
        }
        document.querySelector<HTMLAnchorElement>(linkSelector)?.click()
        check()
      }),
    [link, heading] as const,
  )
}

/** `in the document after 120 ms, shown after 250 ms` */
const timing = ({ dom, shown }: { dom: number; shown: number }) =>
  `in the document after ${Math.round(dom)} ms, shown after ${Math.round(shown)} ms`

const ABOUT_LINK = 'header a[href="/about"]'
const ABOUT_HEADING = 'h1#about-title'

test.describe('pages loaded ahead of the click', () => {
  // A throttled connection (pages alone may take the 60 s their `goto` allows): more than the
  // 30 s default, more still on a busy machine.
  test.describe.configure({ timeout: 90_000 })

  test('on a slow connection, a pointer resting on a link loads its page ahead, once', async ({
    page,
  }) => {
    await throttle(page)
    await page.goto('/', { timeout: 60_000 })
    await waitForHydration(page)
    // The client runtime, which listens for intent, loads after hydration.
    await page.waitForLoadState('networkidle', { timeout: 60_000 })
    const loaded = recordRequests(page, ABOUT_FILES)
    await page.hover(ABOUT_LINK)
    await page.waitForTimeout(300)
    const afterHover = await clickAndTime(page, ABOUT_LINK, ABOUT_HEADING)
    const files = loaded.length
    expect(files).toBeGreaterThanOrEqual(3) // the page module and its texts
    expect(new Set(loaded).size).toBe(files) // each once: the click fetched nothing again
    console.log(`throttled navigation after a 300 ms hover: heading ${timing(afterHover)}`)

    // Resting long enough for the files to arrive, the click shows the page at once.
    await page.goBack()
    await expect(page.locator('h1#hero-title')).toBeVisible()
    const contactFiles = /\/assets\/(contact-page|contact)-[\w-]+\.js$/
    const contact = recordRequests(page, contactFiles)
    const arrived = recordRequests(page, contactFiles, 'requestfinished')
    await page.hover('header a[href="/contact"]')
    await expect.poll(() => contact.length, { timeout: 30_000 }).toBeGreaterThanOrEqual(2)
    await expect.poll(() => arrived.length, { timeout: 30_000 }).toBe(contact.length)
    const rested = await clickAndTime(page, 'header a[href="/contact"]', 'h1#contact-page-title')
    console.log(`throttled navigation after the hover's files arrived: heading ${timing(rested)}`)
    expect(new Set(contact).size).toBe(contact.length)
  })

  test('on a slow connection, a click without intent shows the loading bar', async ({ page }) => {
    await throttle(page)
    await page.goto('/', { timeout: 60_000 })
    await waitForHydration(page)
    await page.waitForLoadState('networkidle', { timeout: 60_000 })
    const loaded = recordRequests(page, ABOUT_FILES)
    const bar = page.getByRole('progressbar')
    // A click from script: no pointer rested on the link, no focus, no touch.
    const time = clickAndTime(page, ABOUT_LINK, ABOUT_HEADING)
    await expect(bar).toBeVisible()
    const cold = await time
    expect(loaded.length).toBeGreaterThanOrEqual(3)
    await expect(bar).toBeHidden()
    console.log(`throttled navigation without a hover: heading ${timing(cold)}`)
  })

  test('keyboard focus and a touch load the page ahead, each page once', async ({ page }) => {
    await reportConnection(page, { effectiveType: '3g' })
    await page.goto('/')
    await waitForHydration(page)
    const loaded = recordRequests(page, /\/assets\/[\w-]+-page-[\w-]+\.js$/)
    await page.waitForTimeout(500)
    expect(loaded).toEqual([]) // not on a 3G connection without a gesture
    await page.focus(ABOUT_LINK)
    await page.focus('header a[href="/contact"]')
    await page.focus(ABOUT_LINK)
    await page.dispatchEvent('header a[href="/services"]', 'touchstart')
    await expect
      .poll(() =>
        ['about-page', 'contact-page', 'services-page'].map(
          (name) => loaded.filter((path) => path.includes(name)).length,
        ),
      )
      .toEqual([1, 1, 1])
  })

  test('on a fast connection the links in view load once the browser is idle', async ({ page }) => {
    await reportConnection(page, { effectiveType: '4g' })
    const loaded = recordRequests(page, /\/assets\/[\w-]+-page-[\w-]+\.js$/)
    await page.goto('/')
    await waitForHydration(page)
    // The header's links (services, about, contact) are in view: their pages come without a
    // gesture, each once.
    await expect
      .poll(() =>
        ['services-page', 'about-page', 'contact-page'].map(
          (name) => loaded.filter((path) => path.includes(name)).length,
        ),
      )
      .toEqual([1, 1, 1])
  })

  test('with Save-Data nothing is loaded ahead', async ({ page }) => {
    await reportConnection(page, { effectiveType: '4g', saveData: true })
    await page.goto('/')
    await waitForHydration(page)
    const loaded = recordRequests(page, ABOUT_FILES)
    await page.hover(ABOUT_LINK)
    await page.focus(ABOUT_LINK)
    await page.waitForTimeout(500)
    expect(loaded).toEqual([])
  })
})

test.describe('view transitions', () => {
  /** Counts `document.startViewTransition` calls and sums layout shifts. */
  async function watch(page: Page) {
    await page.addInitScript(() => {
      const calls = { transitions: 0, shift: 0 }
      Object.assign(window, { __navigation: calls })
      // Chromium has view transitions; the test counts the router's calls to them.
      const original = document.startViewTransition.bind(document)
      document.startViewTransition = ((...args: Parameters<typeof original>) => {
        calls.transitions++
        return original(...args)
      }) as typeof document.startViewTransition
      new PerformanceObserver((list) => {
        for (const entry of list.getEntries() as (PerformanceEntry & {
          value: number
          hadRecentInput: boolean
        })[]) {
          if (!entry.hadRecentInput) calls.shift += entry.value
        }
      }).observe({ type: 'layout-shift', buffered: true })
    })
  }
  const calls = (page: Page) =>
    page.evaluate(
      () =>
        (window as unknown as { __navigation: { transitions: number; shift: number } })
          .__navigation,
    )

  test('a client-side navigation runs as a view transition, without layout shift', async ({
    page,
  }) => {
    await watch(page)
    await page.goto('/')
    await waitForHydration(page)
    const before = await calls(page)
    await page.click(ABOUT_LINK)
    await expect(page.locator(ABOUT_HEADING)).toBeVisible()
    const after = await calls(page)
    expect(after.transitions).toBe(before.transitions + 1)
    expect(after.shift).toBe(before.shift)
  })

  test('with reduced motion there is none', async ({ page }) => {
    await page.emulateMedia({ reducedMotion: 'reduce' })
    await watch(page)
    await page.goto('/')
    await waitForHydration(page)
    await page.click(ABOUT_LINK)
    await expect(page.locator(ABOUT_HEADING)).toBeVisible()
    expect((await calls(page)).transitions).toBe(0)
  })
})

test.describe('back/forward cache', () => {
  test.describe.configure({ timeout: 60_000 })
  // Playwright switches Chromium's back/forward cache off; these pages get a browser with it.
  let browser: Browser
  test.beforeAll(async () => {
    browser = await chromium.launch({
      executablePath: CHROMIUM_PATH,
      args: CHROMIUM_ARGS,
      ignoreDefaultArgs: ['--disable-back-forward-cache'],
    })
  })
  test.afterAll(async () => {
    await browser.close()
  })

  /** Leaves the page with a full navigation and comes back: was it restored from the cache? */
  async function leaveAndReturn(page: Page, baseURL: string): Promise<boolean> {
    await page.evaluate(() => {
      ;(window as unknown as { hasLeft?: boolean }).hasLeft = true
      window.addEventListener('pageshow', (event) => {
        document.documentElement.dataset.restored = String(event.persisted)
      })
    })
    await page.goto(`${baseURL}/de/imprint`)
    // A page restored from the cache fires no `load`: wait for the history step only.
    await page.goBack({ waitUntil: 'commit' })
    await page.waitForFunction(() => document.readyState === 'complete')
    // A restored page keeps its script state (`hasLeft`) and gets its `pageshow` soon, however
    // late a busy machine delivers it; a freshly loaded one has neither, and never gets the mark.
    await page.waitForFunction(
      () =>
        (window as unknown as { hasLeft?: boolean }).hasLeft === undefined ||
        document.documentElement.dataset.restored !== undefined,
      undefined,
      { timeout: 15_000 },
    )
    return (await page.locator('html').getAttribute('data-restored')) === 'true'
  }

  test('a page is restored after prefetching and a view transition', async ({ baseURL }) => {
    const page = await browser.newPage()
    await page.goto(`${baseURL}/`)
    await waitForHydration(page)
    await page.hover(ABOUT_LINK)
    await page.click(ABOUT_LINK)
    await expect(page.locator(ABOUT_HEADING)).toBeVisible()
    expect(await leaveAndReturn(page, baseURL ?? '')).toBe(true)
    await page.close()
  })

  test('a page is restored after the build watcher ran', async ({ baseURL }) => {
    const page = await browser.newPage()
    const checks = recordRequests(page, /\/builds\/meta\//)
    await page.goto(`${baseURL}/services`)
    await waitForHydration(page)
    // The build watcher's first check waits for an idle moment: later on a busy machine.
    await expect.poll(() => checks.length, { timeout: 30_000 }).toBeGreaterThan(0)
    expect(await leaveAndReturn(page, baseURL ?? '')).toBe(true)
    await page.close()
  })

  test('a page is restored with what was typed into its form', async ({ baseURL }) => {
    const page = await browser.newPage()
    await page.goto(`${baseURL}/contact`)
    await waitForHydration(page)
    await page.getByLabel(/name/i).first().fill('Ada Lovelace')
    expect(await leaveAndReturn(page, baseURL ?? '')).toBe(true)
    await expect(page.getByLabel(/name/i).first()).toHaveValue('Ada Lovelace')
    await page.close()
  })
})
