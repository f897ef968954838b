/**
 * The spam defence: which posts of the contact forms are a person's message. Each layer is
 * cheap for a person and costly or telling for a bot: the browser's word on where a post came
 * from (`post-origin.ts`), a signed form token per page view with its keys rotated and shared
 * by replicas (`form-token.ts`, `token-keys.ts`), a proof of work a script solves while the
 * visitor types (`proof-of-work.ts`), a budget of their own for posts that rely on a page's
 * token alone (`page-budget.ts`), each token and solution claimed once (`claims.ts`), and
 * the content's signs of spam (`spam-signals.ts`, which also names every reason a post is
 * dropped, refused or renewed, as the metrics and alerts count them). A verdict decides only
 * what the post gets; keeping a dropped message is the contact pipeline's quarantine. Code
 * outside this folder imports it only from here.
 */

export { FileClaimStore, MemoryClaimStore, RedisClaimStore } from './claims.ts'
export { FormTokens, type TokenClaims } from './form-token.ts'
export { PAGE_TOKEN_BUDGET, spendPageBudget } from './page-budget.ts'
export { postOrigin } from './post-origin.ts'
export { ProofOfWork } from './proof-of-work.ts'
export {
  DROP_REASONS,
  MAX_LINKS,
  REJECTION_REASONS,
  REJECTIONS,
  REPEAT_WINDOW_MS,
  repeatableText,
  SUSPECT_REASONS,
  suspectReasons,
  type DropReason,
  type RejectionReason,
  type SuspectReason,
} from './spam-signals.ts'
export { loadTokenKeys, type TokenKeys } from './token-keys.ts'
