import { chromium } from '@playwright/test'
import { CSP_REPORT_PATH } from '#server/routes/csp-reports.ts'
import { CHROMIUM_ARGS, CHROMIUM_PATH } from '#tests/helpers/chromium.ts'
import { sumOf } from '#tests/helpers/metrics.ts'
import { startTlsProxy, TLS_HOST } from '#tests/helpers/tls-proxy.ts'
import { rawHtmlAttempts } from '#tests/helpers/trusted-types.ts'
import { expect, test, waitForHydration } from './fixtures.ts'

// The Reporting API reports only from secure contexts: the site over HTTPS on a host name,
// with a certificate made for this test that this Chromium is told to trust (by its key's
// hash), as a visitor's browser reaches the site through the ingress.

test('a refused sink is reported over HTTPS to the site’s endpoint and counted', async ({
  baseURL,
}) => {
  const proxy = await startTlsProxy(baseURL ?? '')
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: [
      ...CHROMIUM_ARGS.filter((arg) => !arg.startsWith('--host-resolver-rules=')),
      `--host-resolver-rules=MAP ${TLS_HOST} 127.0.0.1 , MAP * ~NOTFOUND , EXCLUDE 127.0.0.1`,
      `--ignore-certificate-errors-spki-list=${proxy.spki}`,
      // Reports leave after 100 ms instead of the minute browsers batch them for.
      '--short-reporting-delay',
    ],
  })
  const violations = async (directive: string) =>
    sumOf(await (await fetch(`${baseURL}/metrics`)).text(), 'csp_violations_total', { directive })
  try {
    const page = await browser.newPage()
    await page.goto(`${proxy.origin}/de/contact`)
    expect(await page.evaluate(() => window.isSecureContext)).toBe(true)
    await waitForHydration(page)
    const before = {
      sink: await violations('require-trusted-types-for'),
      policy: await violations('trusted-types'),
    }
    expect((await page.evaluate(rawHtmlAttempts)).attempts).toEqual([
      'innerHTML: TypeError',
      'policy: TypeError',
    ])
    await expect
      .poll(async () => ({
        sink: (await violations('require-trusted-types-for')) - before.sink,
        policy: (await violations('trusted-types')) - before.policy,
      }))
      .toEqual({ sink: 1, policy: 1 })
    // Through the Reporting API (`report-to`), which Chromium prefers to `report-uri`.
    expect(
      proxy.requests.filter(({ path }) => path === CSP_REPORT_PATH).map((r) => r.contentType),
    ).toContain('application/reports+json')
  } finally {
    await browser.close()
    await proxy.close()
  }
})
