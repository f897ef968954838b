import type { FastifyInstance } from 'fastify'
import { expect } from 'vitest'
import { cutOffContent } from '#tests/helpers/reflow.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import type { Engine } from './drivers.ts'
import { FRAME_PATH, startProbeProxy, takeProblems, type ProbeProxy } from './probe-proxy.ts'

/**
 * The journeys every engine takes, written once against the drivers' common interface
 * (drivers.ts). The site is the real app on the production build, behind the probe proxy.
 */
export type Site = {
  origin: string
  proxy: ProbeProxy
  app: FastifyInstance
  close(): Promise<void>
}

export async function startSite(env: Record<string, string> = {}): Promise<Site> {
  const app = await buildTestApp({ CONTACT_RATE_MAX: '1000', ...env })
  const upstream = await app.listen({ port: 0, host: '127.0.0.1' })
  const proxy = await startProbeProxy(upstream)
  return {
    origin: proxy.origin,
    proxy,
    app,
    async close() {
      await proxy.close()
      await app.close()
    },
  }
}

/** Polls a condition in the page until it holds (a busy machine may take seconds). */
export async function until(engine: Engine, condition: () => boolean, what: string) {
  const started = Date.now()
  while (!(await engine.run(condition))) {
    if (Date.now() - started > 20_000)
      throw new Error(`${engine.name}: still not ${what} after 20 s`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

/** Loads a path and waits until React has hydrated it and its requests are done. */
export async function open(engine: Engine, site: Site, path: string) {
  await engine.goto(`${site.origin}${path}`)
  await until(engine, () => document.documentElement.dataset.hydrated === 'true', 'hydrated')
  await site.proxy.settled()
}

/** What the page and the proxy noted since the last look: script errors, CSP, failed requests. */
export async function expectNoProblems(engine: Engine, site: Site, where: string) {
  const problems = await engine.run(takeProblems)
  const failures = site.proxy.takeFailures()
  expect({ problems, failures }, `${engine.name}: ${where}`).toEqual({ problems: [], failures: [] })
}

/** A page as a visitor first sees it: rendered, hydrated, clean, with one `h1`. */
export async function pageJourney(engine: Engine, site: Site, path: string) {
  await engine.setWidth(1280)
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
    const src = encodeURIComponent(path)
    await engine.gotoFramed(`${site.origin}${FRAME_PATH}?src=${src}&width=${width}`)
    await until(engine, () => document.documentElement.dataset.hydrated === 'true', 'hydrated')
    await site.proxy.settled()
    expect(await engine.run(() => document.documentElement.clientWidth)).toBe(width)
  }
  await engine.run(settledLayout)
  const problems = await engine.run(cutOffContent)
  await engine.setWidth(1280)
  expect(problems, `${engine.name}: ${path} at 320 CSS px`).toEqual([])
  await expectNoProblems(engine, site, `${path} at 320 px`)
}
