import { TRUSTED_TYPES_POLICIES } from '#shared/trusted-types.ts'

/** What the site uses of the Trusted Types API (not yet in TypeScript's DOM types). */
type TrustedScriptURL = { readonly __brand: 'TrustedScriptURL' }
type ScriptUrlPolicy = { createScriptURL(input: string): TrustedScriptURL }
type PolicyFactory = {
  createPolicy(name: string, rules: { createScriptURL(input: string): string }): ScriptUrlPolicy
}

let workerPolicy: ScriptUrlPolicy | undefined

/**
 * A worker script's URL as the browser accepts it under `require-trusted-types-for 'script'`:
 * through the site's one script-URL policy, which lets only this origin's scripts through
 * (a worker must be same-origin anyway). Browsers without Trusted Types get the URL itself.
 */
export function trustedWorkerUrl(url: URL): URL | TrustedScriptURL {
  const factory = (globalThis as { trustedTypes?: PolicyFactory }).trustedTypes
  if (!factory) return url
  workerPolicy ??= factory.createPolicy(TRUSTED_TYPES_POLICIES.proofOfWorkWorker, {
    createScriptURL(input) {
      const parsed = new URL(input, location.href)
      if (parsed.origin !== location.origin) {
        throw new TypeError(`Not a worker of this site: ${parsed.origin}`)
      }
      return parsed.href
    },
  })
  return workerPolicy.createScriptURL(url.href)
}
