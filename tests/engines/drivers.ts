import { spawn, type ChildProcess } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import puppeteer, { type Browser, type Frame, type Page } from 'puppeteer-core'
import { withinTime } from '#server/lib/within-time.ts'
import { freePort } from '#tests/helpers/net.ts'

/**
 * The browser engines beside Chromium, each behind the same small interface, so the journeys
 * (journeys.ts) are written once (docs/decisions/gecko-and-webkit-through-their-own-drivers.md):
 * - Gecko: Debian's firefox-esr, driven by puppeteer-core over WebDriver BiDi;
 * - WebKit: Debian's WebKitGTK MiniBrowser, driven over W3C WebDriver by WebKitWebDriver,
 *   under xvfb-run (MiniBrowser has no headless mode).
 */
export type EngineName = 'gecko' | 'webkit'
export const ENGINE_NAMES: readonly EngineName[] = ['gecko', 'webkit']

/**
 * What the browser is set to at launch: the media features a visitor's system sets, and
 * JavaScript. Neither driver can change them at run time (Chromium's DevTools calls for it
 * do not exist over WebDriver), so each set of options is a browser of its own.
 */
export type EngineOptions = {
  /** `prefers-color-scheme` (Gecko: a preference; WebKit: MiniBrowser's dark mode). */
  colorScheme: 'light' | 'dark'
  /** `prefers-reduced-motion: reduce` (Gecko: a preference; WebKit: GTK's animations off). */
  reducedMotion: boolean
  /**
   * Whether the pages' own scripts run (Gecko: `javascript.enabled`; WebKit: JavaScript in
   * document markup). The driver's scripts run either way: they read the page, they do not
   * act for it.
   */
  javaScript: boolean
}

const DEFAULT_OPTIONS: EngineOptions = {
  colorScheme: 'light',
  reducedMotion: false,
  javaScript: true,
}

export type Engine = {
  name: EngineName
  options: EngineOptions
  /** The narrowest window the engine's driver can make; narrower widths need a frame. */
  minWidth: number
  /** Loads a URL; resolves after its load event. */
  goto(url: string): Promise<void>
  /**
   * Runs a function in the page with JSON arguments and returns its (awaited) JSON result.
   * The function travels as its source: it may use only its arguments and the page's globals.
   */
  run<T, A extends unknown[]>(fn: (...args: A) => T | Promise<T>, ...args: A): Promise<T>
  /** Sets the width of the page's viewport in CSS px (at least `minWidth`). */
  setWidth(width: number): Promise<void>
  /**
   * Opens a page in a frame of the given width on the proxy's frame page and makes the frame
   * the context of `run` until the next `goto`: widths below `minWidth`.
   */
  gotoFramed(frameUrl: string): Promise<void>
  /** The address of the document `run` runs in. */
  url(): Promise<string>
  /** A click on the element, as the driver's input does it (a navigation it starts may go on). */
  click(selector: string): Promise<void>
  /** Empties the field, then types into it key by key, as the driver's input does it. */
  fill(selector: string, text: string): Promise<void>
  /** Chooses the option with that value in the select element. */
  select(selector: string, value: string): Promise<void>
  /** A PNG of the whole page (WebKit: of the viewport, which is all its driver shows). */
  screenshot(path: string): Promise<void>
  /** Whether the page still answers its driver: a script that returns at once, within 5 s. */
  answering(): Promise<boolean>
  close(): Promise<void>
}

/** The driver calls of an `Engine`, each held to `CALL_DEADLINE_MS`. */
const CALLS = [
  'goto',
  'run',
  'setWidth',
  'gotoFramed',
  'url',
  'click',
  'fill',
  'select',
  'screenshot',
] as const satisfies readonly (keyof Engine)[]

/**
 * How long one driver call may take. A page load, the longest, takes about a second, a few on
 * a busy machine; the drivers' own limits for a page load and a script (`PAGE_LIMITS_MS`) come
 * first. A browser stops answering in two ways, both seen in CI with WebKitGTK 2.50, the site
 * answering and every process idle: its driver waits on it for good (every later call queued
 * behind the stuck one), or its page answers every command with the driver's `timeout`, for
 * good, while a new window of the same browser works. So a call past this deadline, or one that
 * timed out on a page that then fails the liveness probe (`answering`), is a browser that
 * stopped answering; a page that merely did not load in time, in a browser that still answers,
 * fails as such. So does a browser whose page crashed (seen once in CI with WebKitGTK, on a
 * page it had shown a thousand times: "Could not parse script result", then "session deleted
 * because of page crash or hang" for every later call): a call the driver failed, followed by
 * a failed probe, is the same case.
 */
const CALL_DEADLINE_MS = 30_000
const PAGE_LIMITS_MS = { pageLoad: 20_000, script: 20_000 }
/** How long the liveness probe's trivial script may take. */
const PROBE_DEADLINE_MS = 5_000

/** A browser that stopped answering its driver: the test may run again in a new one. */
export class EngineUnresponsive extends Error {
  override name = 'EngineUnresponsive'
}

/** An engine whose calls are held to the deadline; past it, the browser is not used again. */
export type WatchedEngine = Engine & {
  /** The call the browser stopped answering, or one a timed-out test left running; else null. */
  stuckOn(): string | null
}

const FIREFOX = process.env.FIREFOX_PATH ?? '/usr/bin/firefox-esr'
const MINIBROWSER =
  process.env.MINIBROWSER_PATH ?? '/usr/lib/x86_64-linux-gnu/webkit2gtk-4.1/MiniBrowser'

/** What an engine needs that this machine lacks, as the Debian packages to install; null if none. */
export function missingFor(name: EngineName): string | null {
  const needs: [string, string][] =
    name === 'gecko'
      ? [[FIREFOX, 'firefox-esr']]
      : [
          [MINIBROWSER, 'webkit2gtk-driver'],
          ['/usr/bin/WebKitWebDriver', 'webkit2gtk-driver'],
          ['/usr/bin/xvfb-run', 'xvfb xauth'],
        ]
  const packages = [...new Set(needs.filter(([path]) => !existsSync(path)).map(([, pkg]) => pkg))]
  return packages.length > 0 ? packages.join(' ') : null
}

export async function launchEngine(
  name: EngineName,
  settings: Partial<EngineOptions> = {},
): Promise<WatchedEngine> {
  const options = { ...DEFAULT_OPTIONS, ...settings }
  return watched(await (name === 'gecko' ? launchGecko(options) : launchWebKit(options)))
}

function watched(engine: Engine): WatchedEngine {
  let stuck: string | null = null
  const running = new Set<string>()
  const calls = Object.fromEntries(
    CALLS.map((call) => [
      call,
      async (...args: unknown[]) => {
        const what = `${call}(${describeArguments(args)})`
        if (stuck) throw new EngineUnresponsive(`${engine.name} did not answer ${stuck}`)
        running.add(what)
        try {
          const method = (engine[call] as (...values: unknown[]) => Promise<unknown>).bind(engine)
          return await withinTime(
            method(...args),
            CALL_DEADLINE_MS,
            `${what} took over ${CALL_DEADLINE_MS / 1000} s`,
          )
        } catch (error) {
          // Out of time (a slow page, or a browser that stopped answering?) or failed in the
          // driver (a script it could not read back, a session it deleted: what a crashed page
          // gives): the probe tells whether the browser still answers.
          const message = error instanceof Error ? error.message : ''
          const late = /took over|time(d )?out/i.test(message)
          const driverFailed = /^WebDriver |Protocol error|Target closed/.test(message)
          if ((late || driverFailed) && !(await engine.answering())) {
            stuck = what
            throw new EngineUnresponsive(
              `${engine.name} did not answer ${what} (${message}), nor a script after it`,
            )
          }
          throw error
        } finally {
          running.delete(what)
        }
      },
    ]),
  ) as Pick<Engine, (typeof CALLS)[number]>
  return {
    ...engine,
    ...calls,
    stuckOn: () => stuck ?? running.values().next().value ?? null,
  }
}

/** A call's arguments (JSON, or a function) for a message: a function by its name, JSON cut short. */
function describeArguments(args: unknown[]): string {
  return args
    .map((arg) =>
      typeof arg === 'function' ? arg.name || 'function' : JSON.stringify(arg).slice(0, 120),
    )
    .join(', ')
}

const VIEWPORT_HEIGHT = 800
/** How long a browser may take to close before it is killed. */
const CLOSE_DEADLINE_MS = 5_000

async function launchGecko(options: EngineOptions): Promise<Engine> {
  const browser: Browser = await puppeteer.launch({
    browser: 'firefox',
    executablePath: FIREFOX,
    headless: true,
    // A call the browser never answers ends here (the watchdog's deadline, above, is the same).
    protocolTimeout: CALL_DEADLINE_MS,
    // The HTTPS test origin's certificate is made for the run (tests/helpers/tls-proxy.ts).
    acceptInsecureCerts: true,
    extraPrefsFirefox: {
      // Firefox asks Mozilla's settings server at start; this machine has no way out.
      'services.settings.server': 'http://127.0.0.1:9/',
      // 0 dark, 1 light: what the pages see as prefers-color-scheme.
      'layout.css.prefers-color-scheme.content-override': options.colorScheme === 'dark' ? 0 : 1,
      'ui.prefersReducedMotion': options.reducedMotion ? 1 : 0,
      'javascript.enabled': options.javaScript,
    },
    env: { ...process.env, MOZ_REMOTE_SETTINGS_DEVTOOLS: '1' },
  })
  const page: Page = await browser.newPage()
  page.setDefaultNavigationTimeout(PAGE_LIMITS_MS.pageLoad)
  await page.setViewport({ width: 1280, height: VIEWPORT_HEIGHT })
  /** Where `run` runs: the page, or the frame `gotoFramed` opened. */
  let target: Page | Frame = page
  return {
    name: 'gecko',
    options,
    minWidth: 1,
    async goto(url) {
      target = page
      await page.goto(url, { waitUntil: 'load' })
    },
    async run<T, A extends unknown[]>(fn: (...args: A) => T | Promise<T>, ...args: A) {
      return (await target.evaluate(fn as (...values: unknown[]) => unknown, ...args)) as T
    },
    async gotoFramed(frameUrl) {
      await page.goto(frameUrl, { waitUntil: 'load' })
      const frame = page.frames()[1]
      if (!frame) throw new Error('the frame page has no frame')
      target = frame
    },
    async setWidth(width) {
      await page.setViewport({ width, height: VIEWPORT_HEIGHT })
    },
    async url() {
      return target.url()
    },
    async click(selector) {
      // The mouse at the element's centre: Puppeteer's own click never returned here in
      // Firefox with the page's scripts off. Gecko needs no frame, so page coordinates hold.
      const point = await target.$eval(selector, (element) => {
        element.scrollIntoView({ block: 'center' })
        const rect = element.getBoundingClientRect()
        return { x: rect.x + rect.width / 2, y: rect.y + rect.height / 2 }
      })
      await page.mouse.click(point.x, point.y)
    },
    async fill(selector, text) {
      await target.$eval(selector, (field) => {
        ;(field as HTMLInputElement).value = ''
      })
      await target.type(selector, text)
    },
    async select(selector, value) {
      await target.select(selector, value)
    },
    async screenshot(path) {
      await page.screenshot({ path, fullPage: true })
    },
    async answering() {
      return withinTime(
        target.evaluate(() => true),
        PROBE_DEADLINE_MS,
        'no answer',
      ).then(
        () => true,
        () => false,
      )
    },
    async close() {
      // A browser that stopped answering may not close either: then it is killed.
      await withinTime(browser.close(), CLOSE_DEADLINE_MS, 'not closed').catch(() =>
        browser.process()?.kill('SIGKILL'),
      )
    },
  }
}

/** A W3C WebDriver session: each command a JSON request to the driver. */
async function launchWebKit(options: EngineOptions): Promise<Engine> {
  const port = await freePort()
  // GTK's own setting is what WebKitGTK reports as prefers-reduced-motion; a settings file
  // of its own for this browser, so the machine's stays as it is.
  const config = mkdtempSync(join(tmpdir(), 'engine-webkit-'))
  mkdirSync(join(config, 'gtk-3.0'))
  writeFileSync(
    join(config, 'gtk-3.0', 'settings.ini'),
    `[Settings]\ngtk-enable-animations=${options.reducedMotion ? 0 : 1}\n`,
  )
  // Own process group: xvfb-run starts Xvfb and the driver, and all of them go at the end.
  const driver: ChildProcess = spawn(
    'xvfb-run',
    ['-a', '-s', '-screen 0 1600x1200x24', 'WebKitWebDriver', `--port=${port}`],
    { detached: true, stdio: 'ignore', env: { ...process.env, XDG_CONFIG_HOME: config } },
  )
  const base = `http://127.0.0.1:${port}`
  async function command<T>(
    method: string,
    path: string,
    body?: unknown,
    // A moment past the watchdog's deadline, which names the call; this one frees the socket.
    deadline = CALL_DEADLINE_MS + 1_000,
  ): Promise<T> {
    const response = await fetch(`${base}${path}`, {
      method,
      headers: { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
      signal: AbortSignal.timeout(deadline),
    })
    const answer = (await response.json()) as { value: T & { error?: string; message?: string } }
    if (!response.ok) {
      throw new Error(`WebDriver ${method} ${path}: ${answer.value.error}: ${answer.value.message}`)
    }
    return answer.value
  }
  const started = Date.now()
  for (;;) {
    try {
      await command('GET', '/status')
      break
    } catch (error) {
      if (Date.now() - started > 30_000) throw error
      await new Promise((resolve) => setTimeout(resolve, 100))
    }
  }
  const { sessionId } = await command<{ sessionId: string }>('POST', '/session', {
    capabilities: {
      alwaysMatch: {
        browserName: 'MiniBrowser',
        // The HTTPS test origin's certificate is made for the run (tests/helpers/tls-proxy.ts).
        acceptInsecureCerts: true,
        timeouts: PAGE_LIMITS_MS,
        'webkitgtk:browserOptions': {
          binary: MINIBROWSER,
          args: [
            '--automation',
            ...(options.colorScheme === 'dark' ? ['--dark-mode'] : []),
            // Markup's scripts off; the driver's scripts still run.
            ...(options.javaScript ? [] : ['--enable-javascript-markup=false']),
          ],
        },
      },
    },
  })
  const session = `/session/${sessionId}`
  /** The window's outer size for a viewport width: the chrome around the page is measured once. */
  let chrome: { width: number; height: number } | null = null
  async function setWidth(width: number) {
    if (!chrome) {
      const outer = await command<{ width: number; height: number }>(
        'GET',
        `${session}/window/rect`,
      )
      const inner = await command<[number, number]>('POST', `${session}/execute/sync`, {
        script: 'return [window.innerWidth, window.innerHeight]',
        args: [],
      })
      chrome = { width: outer.width - inner[0], height: outer.height - inner[1] }
    }
    await command('POST', `${session}/window/rect`, {
      width: width + chrome.width,
      height: VIEWPORT_HEIGHT + chrome.height,
    })
  }
  await setWidth(1280)
  const ELEMENT = 'element-6066-11e4-a52e-4f735466cecf'
  async function element(selector: string): Promise<string> {
    const found = await command<Record<string, string>>('POST', `${session}/element`, {
      using: 'css selector',
      value: selector,
    })
    const id = found[ELEMENT] as string
    // WebKit's driver refuses to clear a field out of view: scrolled to it first, as a person would.
    await command('POST', `${session}/execute/sync`, {
      script: 'arguments[0].scrollIntoView({ block: "center" })',
      args: [{ [ELEMENT]: id }],
    })
    return id
  }
  async function run<T, A extends unknown[]>(fn: (...args: A) => T | Promise<T>, ...args: A) {
    // execute/async: the function may return a promise; the driver's callback is last.
    const script = `const done = arguments[arguments.length - 1];
      Promise.resolve((${fn.toString()}).apply(null, Array.prototype.slice.call(arguments, 0, -1)))
        .then(done, (error) => done({ __engineError: String(error && error.stack || error) }))`
    const value = await command<T | { __engineError: string }>('POST', `${session}/execute/async`, {
      script,
      args,
    })
    if (value && typeof value === 'object' && '__engineError' in value) {
      throw new Error(`in the page: ${value.__engineError}`)
    }
    return value as T
  }
  return {
    name: 'webkit',
    options,
    minWidth: 447,
    async goto(url) {
      await command('POST', `${session}/url`, { url })
    },
    async gotoFramed(frameUrl) {
      await command('POST', `${session}/url`, { url: frameUrl })
      await command('POST', `${session}/frame`, { id: 0 })
    },
    run,
    async url() {
      // The driver's own URL is the window's; `run` may be in a frame.
      return run(() => location.href)
    },
    async click(selector) {
      await command('POST', `${session}/element/${await element(selector)}/click`, {})
    },
    async fill(selector, text) {
      const field = await element(selector)
      await command('POST', `${session}/element/${field}/clear`, {})
      await command('POST', `${session}/element/${field}/value`, { text })
    },
    async select(selector, value) {
      const option = await element(`${selector} option[value="${value}"]`)
      await command('POST', `${session}/element/${option}/click`, {})
    },
    setWidth,
    async screenshot(path) {
      const png = await command<string>('GET', `${session}/screenshot`)
      writeFileSync(path, Buffer.from(png, 'base64'))
    },
    async answering() {
      return command(
        'POST',
        `${session}/execute/sync`,
        { script: 'return true', args: [] },
        PROBE_DEADLINE_MS,
      )
        .then(() => true)
        .catch(() => false)
    },
    async close() {
      await command('DELETE', session, undefined, CLOSE_DEADLINE_MS).catch(() => undefined)
      rmSync(config, { recursive: true, force: true })
      if (driver.pid) {
        try {
          process.kill(-driver.pid, 'SIGTERM')
        } catch {
          // already gone
        }
      }
    },
  }
}
