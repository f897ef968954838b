import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { copySources } from '#tests/helpers/source-copy.ts'
import { expect, test, waitForHydration } from './fixtures.ts'

/**
 * `npm run dev` on a temporary copy of the tree: edits to a component and to a text show up
 * in the open page without a reload, and in the next server render.
 */
const PORT = Number(process.env.DEV_E2E_PORT ?? 18310)
const origin = `http://127.0.0.1:${PORT}`

let dir = ''
let devServer: ChildProcess | undefined
let output = ''

/**
 * Until `url` answers. A deadline, not a count of tries, and a generous one: `npm run dev`
 * starts Vite too, which on a machine shared with other jobs takes many seconds.
 */
async function waitFor(url: string, timeoutMs = 90_000) {
  const started = Date.now()
  while (Date.now() - started < timeoutMs) {
    try {
      if ((await fetch(url)).ok) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`${url} did not answer within ${timeoutMs} ms:\n${output}`)
}

/** How long an edit may take to reach the page or the server: Vite's watcher and transforms,
 * or Node's restart, are slower on a busy machine (an update comes in under a second here). */
const AFTER_EDIT = { timeout: 30_000 }

/** Replace text in a file of the copy; returns a function that puts the original back. */
function edit(path: string, from: string, to: string) {
  const file = join(dir, path)
  const text = readFileSync(file, 'utf8')
  if (!text.includes(from)) throw new Error(`${path} does not contain ${from}`)
  writeFileSync(file, text.replace(from, to))
  return () => writeFileSync(file, text)
}

test.describe('development mode', () => {
  test.describe.configure({ mode: 'serial', timeout: 90_000 })
  test.use({ baseURL: origin })

  test.beforeAll(async () => {
    test.setTimeout(120_000) // a copy of the tree, then the dev server's start
    dir = copySources('modernwerk-dev-')
    devServer = spawn('npm', ['run', 'dev'], {
      cwd: dir,
      env: { ...process.env, PORT: String(PORT), HOST: '127.0.0.1', APP_BASE_URL: origin },
      stdio: ['ignore', 'pipe', 'pipe'],
      detached: true,
    })
    devServer.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()))
    devServer.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()))
    await waitFor(`${origin}/healthz`)
  })

  // What development's report-only Trusted Types see from its own tools, which production's
  // build does not have (tests/e2e/csp.spec.ts): React's development build checks hydrated
  // `dangerouslySetInnerHTML` (the page's two JSON blocks) by writing it into a scratch
  // element's `innerHTML`, and Vite's client pings a restarted server from a blob: worker.
  const DEVELOPMENT_TOOLS = [
    /^csp report: require-trusted-types-for trusted-types-sink Element innerHTML\|\{/,
    /^csp report: require-trusted-types-for trusted-types-sink SharedWorker constructor\|blob:/,
  ]
  test.afterEach(({ problems }) => {
    const rest = problems.filter((problem) => !DEVELOPMENT_TOOLS.some((tool) => tool.test(problem)))
    problems.length = 0
    problems.push(...rest)
  })

  test.afterAll(() => {
    if (devServer?.pid) process.kill(-devServer.pid, 'SIGTERM')
    rmSync(dir, { recursive: true, force: true })
  })

  test('edits to a component and a text update the open page and the next render', async ({
    page,
  }) => {
    await page.goto('/de')
    await waitForHydration(page)
    await page.evaluate(() => {
      ;(window as unknown as { marker: string }).marker = 'no reload'
    })
    const marker = () => page.evaluate(() => (window as unknown as { marker?: string }).marker)

    edit(
      'client/components/site-footer.tsx',
      "<p>{t('footer.about')}</p>",
      "<p>{t('footer.about')} Frisch bearbeitet.</p>",
    )
    await expect(page.locator('.footer-brand p')).toContainText('Frisch bearbeitet.', AFTER_EDIT)
    expect(await marker()).toBe('no reload')

    edit(
      'client/styles/components/footer.css',
      '.footer-brand p {\n',
      '.footer-brand p {\n  text-transform: uppercase;\n',
    )
    await expect(page.locator('.footer-brand p')).toHaveCSS(
      'text-transform',
      'uppercase',
      AFTER_EDIT,
    )
    expect(await marker()).toBe('no reload')

    edit(
      'locales/de/home.json',
      '"title": "Moderne IT, die für Ihr Unternehmen arbeitet – nicht umgekehrt"',
      '"title": "Moderne IT, sofort sichtbar"',
    )
    await expect(page.getByRole('heading', { level: 1 })).toHaveText(
      'Moderne IT, sofort sichtbar',
      AFTER_EDIT,
    )
    expect(await marker()).toBe('no reload')

    const html = await (await fetch(`${origin}/de`)).text()
    expect(html).toContain('Frisch bearbeitet.')
    expect(html).toContain('Moderne IT, sofort sichtbar')
  })

  test('a render error shows the 500 page with the source-mapped error', async ({
    page,
    problems,
  }) => {
    const restore = edit(
      'client/pages/home-page.tsx',
      "  const { t } = useTranslation('home')",
      "  const { t } = useTranslation('home')\n  if (t('hero.title')) throw new Error('Kaputt im Test')",
    )
    // Vite's watcher sees the edit a moment later (longer on a busy machine).
    await expect.poll(async () => (await fetch(`${origin}/de`)).status, AFTER_EDIT).toBe(500)
    const response = await page.goto('/de')
    expect(response?.status()).toBe(500)
    await expect(page.getByRole('heading', { level: 1 })).toHaveText('Interner Serverfehler')
    await expect(page.locator('.error-details')).toContainText('Kaputt im Test')
    await expect(page.locator('.error-details')).toContainText('client/pages/home-page.tsx')
    problems.length = 0 // the 500 status and React's report of the thrown error are the point
    restore()
  })

  test('a syntax error in a locale file is shown with file and position', async ({ page }) => {
    await page.goto('/pl')
    await waitForHydration(page)
    const restore = edit('locales/pl/home.json', '"meta": {', '"meta": {{')
    const overlay = page.locator('vite-error-overlay')
    await expect(overlay).toContainText('locales/pl/home.json', AFTER_EDIT)
    await expect(overlay).toContainText(/line 2 column \d+/)
    expect(output).toContain('locales/pl/home.json')
    restore()
  })

  test('an edit to server code restarts the server and the open page reconnects', async ({
    page,
    problems,
  }) => {
    await page.goto('/')
    await waitForHydration(page)
    await page.evaluate(() => {
      ;(window as unknown as { marker: string }).marker = 'before restart'
    })
    // Vite's client notices the lost socket and reloads the page once the server is back.
    const reloaded = page.waitForEvent('load', AFTER_EDIT)
    const started = performance.now()
    edit('server/routes/seo.ts', 'Disallow: /api/', 'Disallow: /api/\\nDisallow: /edited/')
    await expect
      .poll(async () => {
        try {
          return (await (await fetch(`${origin}/robots.txt`)).text()).includes('/edited/')
        } catch {
          return false
        }
      }, AFTER_EDIT)
      .toBe(true)
    console.log(`server restarted after ${Math.round(performance.now() - started)} ms`)
    await reloaded
    await waitForHydration(page)
    // While the server restarts, the browser reports the refused connections; that is expected.
    const unexpected = problems.filter((problem) => !problem.includes('ERR_CONNECTION_REFUSED'))
    problems.length = 0
    problems.push(...unexpected)
    expect(await page.evaluate(() => (window as unknown as { marker?: string }).marker)).toBe(
      undefined,
    )
  })
})
