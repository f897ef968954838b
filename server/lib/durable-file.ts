import { open } from 'node:fs/promises'

/**
 * Writes that survive a crash or a power loss once they resolve (the outbox, the quarantine,
 * the forms' key): the file's data is synced before it is closed, the folder after a rename.
 */

/** Writes `data` to `path` (owner-only) and syncs it to the disk. */
export async function writeDurably(path: string, data: string) {
  const handle = await open(path, 'w', 0o600)
  try {
    await handle.writeFile(data, 'utf8')
    await handle.sync()
  } finally {
    await handle.close()
  }
}

/** Syncs a folder, so a file renamed into it or removed from it stays so. */
export async function syncDirectory(dir: string) {
  const handle = await open(dir, 'r')
  try {
    await handle.sync()
  } finally {
    await handle.close()
  }
}
