import { ofetch, type FetchOptions } from 'ofetch'

/** Statuses worth one more try for reads (docs/operations.md#deployments-and-version-skew). */
const RETRY_STATUS_CODES = [408, 409, 425, 429, 500, 502, 503, 504]

/** Requests that change something are never repeated by the client. */
const NEVER_RETRIED = new Set(['POST', 'PUT', 'PATCH', 'DELETE'])

type ClientOptions = {
  /** Called with the `X-Build-Id` of every response (new-build detection). */
  onBuildId?: (buildId: string) => void
  baseURL?: string
}

/**
 * The site's HTTP client: 400–599 are errors; GET (and HEAD) retried once on the statuses above
 * and on network errors; POST, PUT, PATCH and DELETE never retried, so a form is never sent
 * twice by the client.
 */
export function createHttpClient({ onBuildId, baseURL }: ClientOptions = {}) {
  const options: FetchOptions = {
    retryDelay: 300,
    retryStatusCodes: RETRY_STATUS_CODES,
    onRequest({ options: request }) {
      // Decided per request (an explicit `retry` option would apply to every method); a
      // retry arrives with its remaining count set and keeps it.
      const method = (request.method ?? 'GET').toUpperCase()
      request.retry ??= NEVER_RETRIED.has(method) ? 0 : 1
    },
    onResponse({ response }) {
      const buildId = response.headers.get('x-build-id')
      if (buildId) onBuildId?.(buildId)
    },
  }
  if (baseURL) options.baseURL = baseURL
  return ofetch.create(options)
}
