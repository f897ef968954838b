import { CLIENT_ENTRY, HYDRATE_MODULE } from '#server/render/assets.ts'
import { screenSource } from '#shared/pages.ts'
import { builtFile, startPullCdn, type PullCdn } from '#tests/helpers/cdn.ts'
import { startSite, type SiteProcess } from '#tests/helpers/site-process.ts'
import { expect, test, waitForHydration } from './fixtures.ts'

/**
 * The site with `CDN_URL`: its scripts come from a second origin, a CDN that pulls them from
 * the site (tests/helpers/cdn.ts), and the browser checks each against the hash the build
 * made. A file changed at the CDN is refused; the server-rendered page stays usable.
 */
const PORT = Number(process.env.SRI_E2E_PORT ?? 18330)
const SITE = `http://127.0.0.1:${PORT}`
const CDN_PORT = PORT + 1

/** How Chromium says it refused a file whose hash does not match. */
const REFUSED = /integrity/i

/** A console line of the refusal of `file`, or of the app saying it could not start. */
function isAbout(problem: string, file: string) {
  return problem.includes(file) || problem.startsWith('error: The app could not start')
}

let server: SiteProcess | undefined
let cdn: PullCdn

test.use({ baseURL: SITE, allowedOrigins: [`http://localhost:${CDN_PORT}`] })
test.describe.configure({ mode: 'serial' })

test.beforeAll(async () => {
  cdn = await startPullCdn(CDN_PORT)
  cdn.pullFrom(SITE)
  server = await startSite(PORT, { CDN_URL: cdn.origin })
})

test.afterAll(async () => {
  await server?.stop()
  await cdn.close()
})

test('scripts come from the CDN, each with its integrity; stylesheets from the site', async ({
  page,
}) => {
  const scripts: string[] = []
  const styles: string[] = []
  page.on('response', (response) => {
    const type = response.request().resourceType()
    if (type === 'script') scripts.push(response.url())
    if (type === 'stylesheet') styles.push(response.url())
  })
  await page.goto('/about')
  await waitForHydration(page)
  const head = await page.evaluate(() => {
    const map = document.querySelector('script[type="importmap"]')
    const entry = document.querySelector<HTMLScriptElement>('script[type="module"]')
    return {
      // Right after the charset: before any module or preload, as browsers need it.
      mapFirst: document.head.children[1] === map,
      integrity: Object.keys(
        (JSON.parse(map?.textContent ?? '{}') as { integrity?: object }).integrity ?? {},
      ),
      entry: { src: entry?.src, integrity: entry?.integrity, crossOrigin: entry?.crossOrigin },
    }
  })
  expect(head.mapFirst).toBe(true)
  expect(head.entry).toEqual({
    src: expect.stringMatching(new RegExp(`^${cdn.origin}/assets/entry-client-[\\w-]+\\.js$`)),
    integrity: expect.stringMatching(/^sha384-[\w+/]{64}$/),
    crossOrigin: 'anonymous',
  })
  // A page reached in the app loads its chunks from the CDN too, checked by the import map.
  await page.getByRole('navigation').first().getByRole('link', { name: 'Services' }).click()
  await expect(page).toHaveURL(`${SITE}/services`)
  await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
  expect(scripts.length).toBeGreaterThan(3)
  for (const url of scripts) {
    expect(url.startsWith(`${cdn.origin}/assets/`), url).toBe(true)
    expect(head.integrity, url).toContain(url)
  }
  for (const url of styles) expect(url.startsWith(`${SITE}/assets/`), url).toBe(true)
})

for (const { source, checkedBy } of [
  { source: CLIENT_ENTRY, checkedBy: 'its integrity attribute' },
  { source: HYDRATE_MODULE, checkedBy: 'the import map, preloaded and imported by the entry' },
]) {
  test(`${source} changed at the CDN is refused (${checkedBy}): the page stays as the server rendered it`, async ({
    page,
    problems,
  }) => {
    const entry = await builtFile(source)
    cdn.corrupt(entry)
    try {
      await page.goto('/contact')
      await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
      await expect.poll(() => problems.some((problem) => REFUSED.test(problem))).toBe(true)
      expect(cdn.requests).toContain(entry)
      // Nothing of the changed file ran: no hydration, and the form still posts without it.
      await page.waitForTimeout(500)
      expect(await page.locator('html').getAttribute('data-hydrated')).toBeNull()
      expect(await page.evaluate(() => 'tamperedAtCdn' in globalThis)).toBe(false)
      // The refusal, and the app's note that it could not start: about that file only.
      expect(problems.filter((problem) => !isAbout(problem, entry))).toEqual([])
      problems.length = 0 // the refusal is the point
    } finally {
      cdn.restore(entry)
    }
  })
}

test('a page chunk changed at the CDN is refused when the app navigates to it', async ({
  page,
  problems,
}) => {
  const chunk = await builtFile(screenSource('services'))
  cdn.corrupt(chunk)
  try {
    await page.goto('/about')
    await waitForHydration(page)
    // The app cannot run the page's chunk; its error view loads the page from the server.
    const reloaded = page.waitForEvent('load')
    await page.getByRole('navigation').first().getByRole('link', { name: 'Services' }).click()
    await reloaded
    await expect(page).toHaveURL(`${SITE}/services`)
    await expect(page.getByRole('heading', { level: 1 })).toBeVisible()
    expect(problems.some((problem) => REFUSED.test(problem))).toBe(true)
    expect(cdn.requests).toContain(chunk)
    expect(await page.evaluate(() => 'tamperedAtCdn' in globalThis)).toBe(false)
    expect(problems.filter((problem) => !isAbout(problem, chunk))).toEqual([])
    problems.length = 0 // the refusal is the point
  } finally {
    cdn.restore(chunk)
  }
})
