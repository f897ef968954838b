import { randomUUID } from 'node:crypto'
import { readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import fp from 'fastify-plugin'
import { repeatWhileOpen } from '../lib/repeat-while-open.ts'
import {
  digestData,
  digestTime,
  dueDigest,
  QUARANTINE_DIGEST_KIND,
} from '../services/contact/index.ts'

declare module 'fastify' {
  interface FastifyInstance {
    quarantineDigest: {
      /**
       * Queues the digest due at `now` unless it was queued before or nothing was held back in
       * its day: what happened. Every 10 minutes by itself; tests call it with the time they
       * need.
       */
      run: (now?: Date) => Promise<'queued' | 'alreadyQueued' | 'nothing' | 'failed'>
    } | null
  }
}

/** How often a replica looks whether the day's digest is due, the first time after start. */
const CHECK_MS = 10 * 60_000
const FIRST_CHECK_MS = 60_000
/** A claim on a day's digest outlives the day. */
const CLAIM_MS = 2 * 86_400_000

/**
 * The daily digest of held-back messages to `MAIL_TO` (docs/contact.md#quarantine): every day at
 * `QUARANTINE_DIGEST_AT` (Europe/Berlin), if the spam defence held anything back since the day
 * before, one mail lists each message in full with its reason and the command that releases it,
 * so a person a layer misjudged is read by a person, not deleted unread after `QUARANTINE_DAYS`.
 * Through the contact outbox, so it is delivered and retried like a message. Once per day across
 * replicas: claimed by day (in Redis with several replicas; the claims file with one), remembered
 * in a file beside the file outbox across restarts, and queued under an id made from the day.
 * Off with `QUARANTINE_DIGEST_AT=off` or without a quarantine (`QUARANTINE_DAYS=0`).
 */
export const quarantineDigestPlugin = fp(
  async (app) => {
    const { config } = app
    const at = digestTime(config.QUARANTINE_DIGEST_AT)
    const held = app.contact.quarantine
    if (!at || !held) {
      app.decorate('quarantineDigest', null)
      return
    }
    const marker = join(resolve(config.OUTBOX_DIR), '.quarantine-digest-day')

    const run = async (now = new Date()) => {
      const due = dueDigest(now, at)
      const lastQueued = await readFile(marker, 'utf8').catch(() => '')
      if (lastQueued.trim() === due.day) return 'alreadyQueued' as const
      // This run's own claim value: another replica (or run) holding the day gets its own.
      const key = `quarantine-digest:${due.day}`
      const claim = randomUUID()
      if ((await app.formTokens.claims.claim(key, claim, CLAIM_MS)) !== null) {
        return 'alreadyQueued' as const
      }
      let outcome: 'queued' | 'nothing'
      try {
        // The entries, not the mail: the worker writes it when it sends it.
        const data = digestData(
          due,
          (await held.list()).map(({ entry }) => entry),
        )
        outcome =
          data.entries.length > 0 || Object.keys(data.leftOut).length > 0 ? 'queued' : 'nothing'
        if (outcome === 'queued') {
          await app.contact.queueSiteMail({
            id: due.id,
            receivedAt: now.toISOString(),
            kind: QUARANTINE_DIGEST_KIND,
            data,
          })
        }
      } catch (error) {
        await app.formTokens.claims.release(key, claim)
        app.contact.countDigest('failed')
        app.log.warn(
          { err: error, day: due.day },
          'quarantine digest not queued, trying again in 10 minutes',
        )
        return 'failed' as const
      }
      app.contact.countDigest(outcome)
      await writeFile(marker, `${due.day}\n`).catch((error: unknown) =>
        app.log.warn({ err: error }, 'quarantine digest done; its day could not be noted'),
      )
      if (outcome === 'queued') {
        app.log.info({ day: due.day, messageId: due.id }, 'quarantine digest queued')
      }
      return outcome
    }

    app.decorate('quarantineDigest', { run })
    // A minute after start (the queue is up by then), then every 10 minutes.
    repeatWhileOpen(app, run, { firstMs: FIRST_CHECK_MS, everyMs: CHECK_MS })
  },
  { name: 'quarantine-digest', dependencies: ['contact-delivery'] },
)
