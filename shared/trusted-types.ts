/**
 * The Trusted Types policies the site's own scripts create (docs/decisions/trusted-types.md):
 * the CSP's `trusted-types` directive names exactly these, so a script that makes any other
 * policy, or writes a plain string into an HTML, script or script-URL sink, is refused by
 * the browser and reported. React renders and hydrates without one: the site gives it no raw
 * HTML to write.
 */
export const TRUSTED_TYPES_POLICIES = {
  /** The proof of work's module worker (`new Worker` takes a TrustedScriptURL). */
  proofOfWorkWorker: 'proof-of-work-worker',
} as const
