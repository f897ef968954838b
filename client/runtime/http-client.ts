import { createHttpClient } from './http.ts'

const buildIdListeners = new Set<(buildId: string) => void>()

/** Be told the build id of every response the site's HTTP client receives. */
export function onBuildId(listener: (buildId: string) => void): () => void {
  buildIdListeners.add(listener)
  return () => buildIdListeners.delete(listener)
}

/** The one configured HTTP client of the browser code. */
export const http = createHttpClient({
  onBuildId: (buildId) => {
    for (const listener of buildIdListeners) listener(buildId)
  },
})
