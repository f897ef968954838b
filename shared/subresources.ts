/**
 * The hashed build files a page loads only as subresources: scripts, stylesheets and fonts under
 * `/assets/`. A browser never shows one as a document, so the headers that govern documents
 * (the CSP, framing, COOP, permissions, where reports go) do nothing on them and are not sent
 * (docs/decisions/subresources-carry-the-headers-that-apply-to-them.md).
 *
 * A worker's script is the exception: the worker runs under the policy its own response
 * carries. vite.config.ts names worker files with this prefix, and they keep every header.
 */
export const WORKER_FILE_PREFIX = 'worker-'

const SUBRESOURCE = /^\/assets\/([\w.-]+)\.(js|css|woff2)$/

/** Whether a URL is a hashed script (not a worker's), stylesheet or font of the build. */
export function isSubresourceOnly(url: string): boolean {
  const name = SUBRESOURCE.exec(url)?.[1]
  return name !== undefined && !name.startsWith(WORKER_FILE_PREFIX)
}
