import { createHash } from 'node:crypto'
import { mkdir, readFile, rename } from 'node:fs/promises'
import { join } from 'node:path'
import type { Redis } from 'ioredis'
import { syncDirectory, writeDurably } from './durable-file.ts'

/** The file beside the outbox that keeps, per set of settings, the day it was first seen. */
export const FIRST_SEEN_FILE = '.policy-settings-first-seen'
const REDIS_KEY = 'modernwerk:policy-settings-first-seen'

/** A checksum of the settings and their values: the same on every replica, new when one changes. */
function settingsFingerprint(settings: Readonly<Record<string, unknown>>): string {
  const sorted = Object.keys(settings)
    .sort()
    .map((name) => [name, settings[name]])
  return createHash('sha256').update(JSON.stringify(sorted)).digest('hex').slice(0, 16)
}

/**
 * The day (Berlin, `today`) these stated settings were first seen by any replica, so the
 * privacy policy of a deployment without `POLICY_SETTINGS_SINCE` names one date on every pod and
 * after every restart (docs/languages.md#legal-texts-that-state-what-the-code-does): in Redis
 * when the replicas share one, else in a file in the outbox's folder. The first replica to
 * record a set wins (`HSETNX`; a file written under another name, then renamed). A store that
 * cannot be read or written gives today, as before this existed.
 */
export async function settingsFirstSeen(
  settings: Readonly<Record<string, unknown>>,
  today: string,
  store: { redis: Redis | null; dir: string },
): Promise<{ day: string; kept: boolean }> {
  const fingerprint = settingsFingerprint(settings)
  try {
    if (store.redis) {
      await store.redis.hsetnx(REDIS_KEY, fingerprint, today)
      const day = await store.redis.hget(REDIS_KEY, fingerprint)
      return { day: day ?? today, kept: day !== null }
    }
    const path = join(store.dir, FIRST_SEEN_FILE)
    const days: Record<string, string> = await readFile(path, 'utf8')
      .then((text) => JSON.parse(text) as Record<string, string>)
      .catch((error: unknown) => {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return {}
        throw error
      })
    const day = days[fingerprint]
    if (day !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(day)) return { day, kept: true }
    await mkdir(store.dir, { recursive: true })
    const temporary = `${path}.${process.pid}.tmp`
    await writeDurably(temporary, `${JSON.stringify({ ...days, [fingerprint]: today })}\n`)
    await rename(temporary, path)
    await syncDirectory(store.dir)
    return { day: today, kept: true }
  } catch {
    return { day: today, kept: false }
  }
}
