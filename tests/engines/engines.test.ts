import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from 'vitest'
import { LOCALIZED_PAGES } from '#shared/pages.ts'
import { ONE_PAGE_PER_LAYOUT } from '#tests/e2e/page-layouts.ts'
import {
  ENGINE_NAMES,
  launchEngine,
  missingFor,
  type Engine,
  type EngineName,
  type EngineOptions,
  type WatchedEngine,
} from './drivers.ts'
import {
  expectNoProblems,
  formJourney,
  languageJourney,
  pageColours,
  motionJourney,
  navigationJourney,
  open,
  pageJourney,
  plainFormJourney,
  reflowJourney,
  screenshotJourney,
  startSite,
  themeJourney,
  until,
  type Site,
} from './journeys.ts'
import { CSP_REPORT_PATH } from '#server/routes/csp-reports.ts'
import { screenSource } from '#shared/pages.ts'
import { builtFile, startPullCdn, type PullCdn } from '#tests/helpers/cdn.ts'
import { sumOf } from '#tests/helpers/metrics.ts'
import { startTlsProxy, type TlsProxy } from '#tests/helpers/tls-proxy.ts'
import { rawHtmlAttempts } from '#tests/helpers/trusted-types.ts'
import { takeProblems } from './probe-proxy.ts'

/**
 * The site in Gecko (firefox-esr) and WebKit (WebKitGTK's MiniBrowser), beside the Chromium
 * suite of Playwright: the same journeys through each engine's own driver. `ENGINES=gecko`
 * or `ENGINES=webkit` runs one (`npm run test:firefox`, `npm run test:webkit`).
 */
const selected = (process.env.ENGINES ?? ENGINE_NAMES.join(','))
  .split(',')
  .map((name) => name.trim())
for (const name of selected) {
  if (!ENGINE_NAMES.includes(name as EngineName)) {
    throw new Error(`ENGINES names ${name}; known: ${ENGINE_NAMES.join(', ')}`)
  }
}

let site: Site
/** HTTPS in front of the site, for the reports of the policy's violations. */
let tls: TlsProxy
beforeAll(async () => {
  site = await startSite()
  tls = await startTlsProxy(site.origin)
})
afterAll(async () => {
  await tls.close()
  await site.close()
})

/** How each engine sends the policy's reports: the Reporting API's batch, or `report-uri`'s. */
const REPORT_TYPE: Record<EngineName, string> = {
  gecko: 'application/reports+json',
  webkit: 'application/csp-report',
}

/** Engines this machine cannot run are skipped with the reason; CI installs them all. */
function runnable(name: EngineName): boolean {
  if (!selected.includes(name)) return false
  const missing = missingFor(name)
  if (missing === null) return true
  const message = `the ${name} engine needs Debian's ${missing} (apt-get install ${missing})`
  if (process.env.CI) throw new Error(`CI installs the browsers: ${message}`)
  console.warn(`Skipping the ${name} tests: ${message}`)
  return false
}

/** One page of every layout, in English: the themes and motion do not depend on the words. */
const LAYOUT_PAGES = ONE_PAGE_PER_LAYOUT.filter(({ locale }) => locale === 'en').map(
  ({ path }) => path,
)
/** Where `ENGINE_SCREENSHOTS` asks for the layouts' screenshots (docs/testing.md#browser-engines).
 * */
const SCREENSHOTS = process.env.ENGINE_SCREENSHOTS

/**
 * A browser of one engine with one set of options for the tests of a `describe`. A browser
 * that stopped answering (drivers.ts, `CALL_DEADLINE_MS`) is replaced before the next test,
 * and the test it failed runs once more (vitest.engines.config.ts): the warning says so.
 */
function useEngine(name: EngineName, options: Partial<EngineOptions> = {}): () => Engine {
  let engine: WatchedEngine | null = null
  beforeAll(async () => {
    engine = await launchEngine(name, options)
  })
  beforeEach(async () => {
    const stuckOn = engine?.stuckOn()
    if (!engine || !stuckOn) return
    console.warn(`${name}: the browser stopped answering ${stuckOn}; starting a new one`)
    await engine.close()
    engine = null
    engine = await launchEngine(name, options)
  })
  afterAll(async () => {
    await engine?.close()
  })
  return () => {
    if (!engine) throw new Error(`the ${name} browser did not start`)
    return engine
  }
}

for (const name of ENGINE_NAMES) {
  describe.skipIf(!runnable(name))(`${name} (ENGINES=${selected.join(',')})`, () => {
    describe('light theme, motion, JavaScript: as most visitors have it', () => {
      const engine = useEngine(name)

      it('sees what it must report: a script error, a CSP violation, a failed request, low contrast', async () => {
        await open(engine(), site, '/')
        await engine().run(() => {
          setTimeout(() => {
            throw new Error('engine probe check')
          })
          const image = document.createElement('img')
          image.src = 'https://offsite.invalid/probe-check.png'
          document.body.append(image)
          return fetch('/assets/probe-check-missing.js').then((response) => response.status)
        })
        await site.proxy.settled()
        await new Promise((resolve) => setTimeout(resolve, 200))
        const problems = await engine().run(takeProblems)
        expect(problems).toEqual(
          expect.arrayContaining([
            expect.stringMatching(/^script error: .*engine probe check/),
            expect.stringMatching(/^CSP violation: img-src https:\/\/offsite\.invalid/),
          ]),
        )
        expect(site.proxy.takeFailures()).toEqual(['GET /assets/probe-check-missing.js: 404'])

        // The contrast check finds grey text on grey (about 1.3:1), and nothing else.
        expect((await engine().run(pageColours)).lowContrast).toEqual([])
        await engine().run(() => {
          const grey = Object.assign(document.createElement('p'), {
            textContent: 'engine contrast check',
          })
          grey.style.color = 'rgb(119, 119, 119)'
          grey.style.background = 'rgb(136, 136, 136)'
          document.querySelector('main')?.append(grey)
        })
        expect((await engine().run(pageColours)).lowContrast).toEqual([
          expect.stringMatching(/^p "engine contrast check" 1\.\d\d:1$/),
        ])
      })

      it('enforces Trusted Types: a raw HTML string and a policy of another name are refused, and reported', async () => {
        // Over HTTPS, as the site is served: Firefox sends reports only from there.
        await open(engine(), { ...site, origin: tls.loopbackOrigin }, '/de/contact')
        const violations = async () => {
          const exposition = (await site.app.inject({ url: '/metrics' })).body
          return ['require-trusted-types-for', 'trusted-types'].map((directive) =>
            sumOf(exposition, 'csp_violations_total', { directive }),
          )
        }
        const before = await violations()
        const earlier = tls.requests.length
        const outcome = await engine().run(rawHtmlAttempts)
        await new Promise((resolve) => setTimeout(resolve, 200))
        const problems = await engine().run(takeProblems)
        expect(outcome).toEqual({
          supported: true,
          attempts: ['innerHTML: TypeError', 'policy: TypeError'],
          children: 0,
        })
        expect(problems).toEqual([
          expect.stringMatching(/^CSP violation: require-trusted-types-for /),
          expect.stringMatching(/^CSP violation: trusted-types /),
        ])
        // Each reached the site's endpoint and was counted: Firefox through the Reporting API
        // (`report-to`), WebKit to `report-uri`.
        await vi.waitFor(
          async () => expect(await violations()).toEqual(before.map((count) => count + 1)),
          { timeout: 20_000, interval: 200 },
        )
        const types = tls.requests
          .slice(earlier)
          .map(({ path, contentType }) => [path, contentType])
        expect(new Set(types.map(String))).toEqual(
          new Set([[CSP_REPORT_PATH, REPORT_TYPE[name]].join()]),
        )
      })

      it.each([1280, 375] as const)(
        'navigates in the page through the menu at %i px, then back and forward',
        async (width) => {
          await navigationJourney(engine(), site, width)
        },
      )

      it('switches the language with a full load and keeps the choice in the cookie', async () => {
        await languageJourney(engine(), site)
      })

      it.each([
        { form: 'contact', locale: 'de' },
        { form: 'home', locale: 'pl' },
      ] as const)(
        'the $form form ($locale): errors in the language, then a delivered message',
        async (form) => {
          await formJourney(engine(), site, form)
        },
      )

      it.each(LAYOUT_PAGES)('%s: light colours with contrast, motion allowed', async (path) => {
        await themeJourney(engine(), site, path)
        await motionJourney(engine(), path)
        if (SCREENSHOTS) await screenshotJourney(engine(), site, path, SCREENSHOTS)
      })

      describe('every page renders and hydrates with no error, failed request or CSP violation', () => {
        it.each(LOCALIZED_PAGES.map(({ path }) => path))('%s', async (path) => {
          await pageJourney(engine(), site, path)
          await reflowJourney(engine(), site, path)
        })
      })
    })

    describe('dark theme and reduced motion, as the system asks', () => {
      const engine = useEngine(name, { colorScheme: 'dark', reducedMotion: true })

      it.each(LAYOUT_PAGES)('%s: dark colours with contrast, nothing moves', async (path) => {
        await themeJourney(engine(), site, path)
        await motionJourney(engine(), path)
        if (SCREENSHOTS) await screenshotJourney(engine(), site, path, SCREENSHOTS)
      })

      it('navigates in the page without view transitions', async () => {
        await navigationJourney(engine(), site, 1280)
      })
    })

    describe('scripts from a CDN (CDN_URL), each checked by its integrity', () => {
      const engine = useEngine(name)
      let cdn: PullCdn
      let cdnSite: Site
      beforeAll(async () => {
        cdn = await startPullCdn()
        cdnSite = await startSite({ CDN_URL: cdn.origin })
        cdn.pullFrom(cdnSite.origin)
      })
      afterAll(async () => {
        await cdnSite.close()
        await cdn.close()
      })

      it('a page chunk changed at the CDN is refused: the server renders the page instead', async () => {
        const chunk = await builtFile(screenSource('services'))
        cdn.corrupt(chunk)
        try {
          // Hydrated from the CDN: the entry by its attribute, the rest through the import map.
          await open(engine(), cdnSite, '/about')
          await expectNoProblems(engine(), cdnSite, '/about from the CDN')
          await engine().click('nav a[href="/services"]')
          // The app cannot run the chunk; its error view loads /services from the server, where
          // hydration needs the same chunk and gives up: the page works without its script.
          const problems: string[] = []
          await until(engine(), 'reloaded as the server page', () => {
            const [navigation] = performance.getEntriesByType('navigation')
            return (
              navigation?.name.endsWith('/services') === true && document.readyState === 'complete'
            )
          })
          await vi.waitFor(
            async () => {
              problems.push(...(await engine().run(takeProblems)))
              expect(problems.some((problem) => problem.includes('could not start'))).toBe(true)
            },
            { timeout: 20_000, interval: 250 },
          )
          expect(cdn.requests).toContain(chunk)
          expect(
            await engine().run(() => ({
              ran: 'tamperedAtCdn' in globalThis,
              hydrated: document.documentElement.dataset.hydrated ?? null,
              heading: Boolean(document.querySelector('h1')),
            })),
          ).toEqual({ ran: false, hydrated: null, heading: true })
        } finally {
          cdn.restore(chunk)
        }
        cdnSite.proxy.takeFailures()
      })
    })

    describe('JavaScript off', () => {
      const engine = useEngine(name, { javaScript: false })

      it('the form posts plainly: errors with the input, then a delivered message', async () => {
        await plainFormJourney(engine(), site)
      })
    })
  })
}
