import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { LOCALIZED_PAGES } from '#shared/pages.ts'
import { ENGINE_NAMES, launchEngine, missingFor, type Engine, type EngineName } from './drivers.ts'
import { open, pageJourney, reflowJourney, startSite, type Site } from './journeys.ts'
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
beforeAll(async () => {
  site = await startSite()
})
afterAll(async () => {
  await site.close()
})

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

for (const name of ENGINE_NAMES) {
  describe.skipIf(!runnable(name))(`${name} (ENGINES=${selected.join(',')})`, () => {
    let engine: Engine
    beforeAll(async () => {
      engine = await launchEngine(name)
    })
    afterAll(async () => {
      await engine.close()
    })

    it('sees what it must report: a script error, a CSP violation, a failed request', async () => {
      await open(engine, site, '/')
      await engine.run(() => {
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
      const problems = await engine.run(takeProblems)
      expect(problems).toEqual(
        expect.arrayContaining([
          expect.stringMatching(/^script error: .*engine probe check/),
          expect.stringMatching(/^CSP violation: img-src https:\/\/offsite\.invalid/),
        ]),
      )
      expect(site.proxy.takeFailures()).toEqual(['GET /assets/probe-check-missing.js: 404'])
    })

    describe('every page renders and hydrates with no error, failed request or CSP violation', () => {
      it.each(LOCALIZED_PAGES.map(({ path }) => path))('%s', async (path) => {
        await pageJourney(engine, site, path)
        await reflowJourney(engine, site, path)
      })
    })
  })
}
