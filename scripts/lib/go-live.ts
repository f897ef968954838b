// The checks of `npm run go-live` (docs/go-live.md), each a function returning its findings, so
// each can be shown failing (tests/scripts/go-live.test.ts). What only the operator can make
// true (log retention, backups, the entry proxy's log) is not checked here: docs/go-live.md
// lists it with the command or screen that shows it.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { localizePath, LOCALES } from '#shared/locales.ts'
import { PAGES } from '#shared/pages.ts'
import { factsStillSamples, SHIPPED_SAMPLES } from '#shared/sample-facts.ts'
import { securityTxtExpires } from '#server/routes/security-txt.ts'

export type CheckResult = { check: string; ok: boolean; detail: string }

const DAY = 86_400_000
/** A `security.txt` must hold for this long still: time to build and roll out a release. */
const SECURITY_TXT_MARGIN_DAYS = 30

const ROOT = join(import.meta.dirname, '..', '..')

/** The company facts that are still the repository's samples. */
export function checkFacts(samples = factsStillSamples()): CheckResult {
  return samples.length === 0
    ? { check: 'company facts', ok: true, detail: 'none is a sample' }
    : {
        check: 'company facts',
        ok: false,
        detail: `${samples.length} still the repository's samples: ${samples.join('; ')}`,
      }
}

/** Whether a `security.txt` expiry leaves the margin, as of `now`. */
export function expiryResult(check: string, expires: Date, now = Date.now()): CheckResult {
  const days = Math.floor((expires.getTime() - now) / DAY)
  return days >= SECURITY_TXT_MARGIN_DAYS
    ? { check, ok: true, detail: `expires ${expires.toISOString()}, in ${days} days` }
    : {
        check,
        ok: false,
        detail:
          days < 0
            ? `expired on ${expires.toISOString()}: build and roll out a release`
            : `expires in ${days} days (${expires.toISOString()}): build and roll out a release`,
      }
}

/** This build's `security.txt` (dist/build-info.json), as `npm run build` made it. */
export function checkBuild(root = ROOT, now = Date.now()): CheckResult {
  let timestamp: number
  try {
    const info = JSON.parse(readFileSync(join(root, 'dist', 'build-info.json'), 'utf8')) as {
      timestamp: number
    }
    timestamp = info.timestamp
  } catch {
    return { check: "the build's security.txt", ok: false, detail: 'no build: run npm run build' }
  }
  return expiryResult("the build's security.txt", securityTxtExpires(timestamp), now)
}

/** Headers every answer of the site carries (server/plugins/security-headers.ts). */
function headerProblems(url: URL, headers: Headers): string[] {
  const problems: string[] = []
  if (!headers.get('content-security-policy')?.includes("default-src 'self'")) {
    problems.push("no Content-Security-Policy with default-src 'self'")
  }
  if (headers.get('x-content-type-options') !== 'nosniff')
    problems.push('no X-Content-Type-Options')
  if (!headers.get('referrer-policy')) problems.push('no Referrer-Policy')
  if (
    url.protocol === 'https:' &&
    !/max-age=[1-9]/.test(headers.get('strict-transport-security') ?? '')
  ) {
    problems.push('no Strict-Transport-Security')
  }
  if (url.protocol !== 'https:') problems.push(`${url.origin} is not HTTPS`)
  return problems
}

/** The checks of a deployed site at `base`, from outside, as a visitor reaches it. */
export async function checkSite(base: URL, now = Date.now()): Promise<CheckResult[]> {
  const at = (path: string) => new URL(path, base)
  const results: CheckResult[] = []
  const guard = async (check: string, run: () => Promise<CheckResult>) => {
    try {
      results.push(await run())
    } catch (error) {
      results.push({ check, ok: false, detail: `no answer: ${(error as Error).message}` })
    }
  }

  await guard('headers', async () => {
    const response = await fetch(at('/'), { redirect: 'manual' })
    const problems = [
      ...(response.status === 200 ? [] : [`/ answered ${response.status}`]),
      ...headerProblems(base, response.headers),
    ]
    return problems.length === 0
      ? { check: 'headers', ok: true, detail: 'HTTPS, CSP, HSTS, nosniff, Referrer-Policy' }
      : { check: 'headers', ok: false, detail: problems.join('; ') }
  })

  await guard('security.txt', async () => {
    const response = await fetch(at('/.well-known/security.txt'))
    if (response.status !== 200) {
      return { check: 'security.txt', ok: false, detail: `answered ${response.status}` }
    }
    const text = await response.text()
    const expires = /^Expires: (.+)$/m.exec(text)?.[1]
    const canonical = /^Canonical: (.+)$/m.exec(text)?.[1]
    const wanted = at('/.well-known/security.txt').href
    if (canonical !== wanted) {
      return {
        check: 'security.txt',
        ok: false,
        detail: `Canonical is ${canonical}, not ${wanted}`,
      }
    }
    if (!expires) return { check: 'security.txt', ok: false, detail: 'no Expires' }
    return expiryResult('security.txt', new Date(expires), now)
  })

  await guard('legal notice', async () => {
    const imprint = PAGES.find((page) => page.screen === 'imprint')?.path ?? '/imprint'
    const found = new Set<string>()
    for (const locale of LOCALES) {
      const response = await fetch(at(localizePath(locale, imprint)))
      const text = (await response.text())
        .replaceAll('\u00a0', ' ')
        .replaceAll('&amp;', '&')
        .replaceAll('&#x27;', "'")
      for (const { sample } of SHIPPED_SAMPLES) if (text.includes(sample)) found.add(sample)
    }
    return found.size === 0
      ? { check: 'legal notice', ok: true, detail: 'no sample fact in any language' }
      : { check: 'legal notice', ok: false, detail: `shows samples: ${[...found].join('; ')}` }
  })

  await guard('metrics', async () => {
    const response = await fetch(at('/metrics'))
    const body = await response.text()
    return response.status === 200 && body.includes('# HELP')
      ? { check: 'metrics', ok: false, detail: '/metrics is public: serve it on METRICS_PORT only' }
      : { check: 'metrics', ok: true, detail: `/metrics answers ${response.status}` }
  })

  await guard('contact', async () => {
    const token = await fetch(at('/api/contact/token?form=contact&locale=en'))
    const issued = token.status === 200 && 'token' in ((await token.json()) as object)
    // Malformed on purpose: the site answers it as invalid and keeps nothing.
    const post = await fetch(at('/api/contact'), {
      method: 'POST',
      headers: { 'content-type': 'application/json', origin: base.origin },
      body: 'not json',
    })
    const answer = (await post.json().catch(() => ({}))) as { status?: string }
    const problems = [
      ...(issued ? [] : [`/api/contact/token answered ${token.status}`]),
      ...(post.status === 400 && answer.status === 'invalid'
        ? []
        : [`/api/contact answered ${post.status} ${JSON.stringify(answer)}`]),
    ]
    return problems.length === 0
      ? { check: 'contact', ok: true, detail: 'token issued, a malformed post refused' }
      : { check: 'contact', ok: false, detail: problems.join('; ') }
  })
  return results
}
