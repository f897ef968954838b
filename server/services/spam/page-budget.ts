import type { ClaimStore } from './claims.ts'
import type { FormTokens, TokenClaims } from './form-token.ts'

/**
 * What posts that rely on a page's token alone may send (docs/contact.md#spam-defence). The form
 * without JavaScript has no proof of work to solve, so its token costs a bot one page request:
 * these posts get a budget of their own, tighter than the script's rate limit. A kept page, and
 * its token, is shared by everyone who loads it while it is kept, so the token's budget is for
 * all of them; the address's is one visitor's. A post over either budget is not delivered but
 * held back in the quarantine (`pageBudget`), where the daily digest shows it to a person.
 */
export const PAGE_TOKEN_BUDGET = {
  /** Messages one page token may send, whoever sends them. */
  perToken: 3,
  /** Messages one address may send with page tokens per `CONTACT_RATE_WINDOW`. */
  perAddress: 2,
} as const

/**
 * Spends one unit of the token's and of the address's budget for a submission (`value`, its
 * claim value: the same submission sent again spends nothing more); whether both had one left.
 * Each unit is a claim (`claims.ts`), so replicas share the budgets through Redis and a restart
 * keeps them with the claims file. The address is kept only as a keyed checksum of it and the
 * window, forgotten with the window.
 */
export async function spendPageBudget(
  tokens: FormTokens,
  post: { claims: TokenClaims; address: string; value: string },
  window: { ms: number; perAddress: number },
  now = Date.now(),
): Promise<boolean> {
  const index = Math.floor(now / window.ms)
  const groups = [
    {
      prefix: `page-token:${post.claims.nonce}`,
      size: PAGE_TOKEN_BUDGET.perToken,
      ttlMs: tokens.limits.maxAgeMs,
    },
    {
      prefix: `page-address:${tokens.addressKey(post.address, index)}`,
      size: window.perAddress,
      ttlMs: (index + 1) * window.ms - now,
    },
  ]
  for (const group of groups) {
    if (!(await spendOne(tokens.claims, group, post.value))) return false
  }
  return true
}

/** Takes the first free unit of a group (or the one this value holds already). */
async function spendOne(
  store: ClaimStore,
  group: { prefix: string; size: number; ttlMs: number },
  value: string,
): Promise<boolean> {
  for (let unit = 0; unit < group.size; unit++) {
    if ((await store.claim(`${group.prefix}:${unit}`, value, group.ttlMs)) === null) return true
  }
  return false
}
