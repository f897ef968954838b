/**
 * What an injected script would try under the site's Trusted Types, run in the page
 * (tests/e2e/csp.spec.ts, tests/engines): markup from a string, and a policy of its own.
 * Each refusal is a `TypeError`.
 */
export function rawHtmlAttempts(): { supported: boolean; attempts: string[]; children: number } {
  const box = document.createElement('div')
  document.body.append(box)
  const attempts: string[] = []
  try {
    box.innerHTML = '<img src="/nothing" alt="">'
    attempts.push('innerHTML written')
  } catch (error) {
    attempts.push(`innerHTML: ${(error as Error).name}`)
  }
  const factory = (
    window as unknown as {
      trustedTypes?: { createPolicy: (name: string, rules: object) => unknown }
    }
  ).trustedTypes
  try {
    factory?.createPolicy('injected', { createHTML: (input: string) => input })
    attempts.push('policy created')
  } catch (error) {
    attempts.push(`policy: ${(error as Error).name}`)
  }
  return { supported: Boolean(factory), attempts, children: box.childElementCount }
}
