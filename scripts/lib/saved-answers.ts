/** An answer of our server saved by `npm run bench`, for the other servers to send alike. */
export type SavedPage = {
  file: string
  status: number
  type: string
  /** Our response headers besides the framing ones, for the other servers to send as well. */
  headers: Record<string, string>
}

/** The key a saved answer goes under: its URL, with `.br` for the Brotli form of a file. */
export function savedKey(path: string, isBrotli: boolean): string {
  return isBrotli ? `${path}.br` : path
}
