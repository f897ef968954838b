/** A page's code could not be loaded (typically: a deployment replaced its chunk). */
export class ChunkLoadError extends Error {
  override name = 'ChunkLoadError'
}

export function isChunkLoadError(error: unknown): boolean {
  return error instanceof Error && error.name === 'ChunkLoadError'
}
