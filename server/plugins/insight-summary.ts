import { randomUUID } from 'node:crypto'
import { readFile, writeFile } from 'node:fs/promises'
import { join, resolve } from 'node:path'
import fp from 'fastify-plugin'
import { repeatWhileOpen } from '../lib/repeat-while-open.ts'
import {
  dueSummary,
  INSIGHT_SUMMARY_KIND,
  prometheusQuery,
  summaryData,
} from '../services/insight/index.ts'

declare module 'fastify' {
  interface FastifyInstance {
    insightSummary: {
      /**
       * Queues the summary due at `now` unless it was queued before: what happened. Runs a
       * minute after start and then hourly by itself; tests call it with the time they need.
       */
      run: (now?: Date) => Promise<'queued' | 'alreadyQueued' | 'failed'>
    } | null
  }
}

/** How often a replica looks whether the week's summary is due, the first time after start. */
const CHECK_MS = 3_600_000
const FIRST_CHECK_MS = 60_000
/** A claim on a week's summary outlives the week. */
const CLAIM_MS = 8 * 86_400_000

/**
 * The weekly insight summary to `MAIL_TO` (docs/insight.md#insight-which-pages-bring-leads), off
 * unless `INSIGHT_SUMMARY_PROMETHEUS_URL` is set: once a week, on one replica, through the contact
 * outbox (so it is delivered and retried like a message). Once per week: claimed by week
 * (in Redis with several replicas), remembered in a file beside the file outbox across
 * restarts, and queued under an id made from the week.
 */
export const insightSummaryPlugin = fp(
  async (app) => {
    const { config } = app
    if (!config.INSIGHT_SUMMARY_PROMETHEUS_URL) {
      app.decorate('insightSummary', null)
      return
    }
    const prometheus = new URL(config.INSIGHT_SUMMARY_PROMETHEUS_URL)
    const marker = join(resolve(config.OUTBOX_DIR), '.insight-summary-week')

    async function run(now = new Date()): Promise<'queued' | 'alreadyQueued' | 'failed'> {
      const { week, until, id } = dueSummary(now)
      const lastQueued = await readFile(marker, 'utf8').catch(() => '')
      if (lastQueued.trim() === week) return 'alreadyQueued'
      // This run's own claim value: another replica (or run) holding the week gets its own.
      const key = `insight-summary:${week}`
      const claim = randomUUID()
      if ((await app.formTokens.claims.claim(key, claim, CLAIM_MS)) !== null) {
        return 'alreadyQueued'
      }
      try {
        // The figures, not the mail: the worker writes it when it sends it.
        const data = await summaryData(prometheusQuery(prometheus, until), {
          until,
          selector: config.INSIGHT_SUMMARY_SELECTOR,
          siteUrl: config.APP_BASE_URL,
        })
        await app.contact.queueSiteMail({
          id,
          receivedAt: now.toISOString(),
          kind: INSIGHT_SUMMARY_KIND,
          data,
        })
      } catch (error) {
        await app.formTokens.claims.release(key, claim)
        app.log.warn({ err: error, week }, 'insight summary not queued, trying again in an hour')
        return 'failed'
      }
      await writeFile(marker, `${week}\n`).catch((error: unknown) =>
        app.log.warn({ err: error }, 'insight summary queued; its week could not be noted'),
      )
      app.log.info({ week, messageId: id }, 'insight summary queued')
      return 'queued'
    }

    app.decorate('insightSummary', { run })
    // A minute after start (the queue is up by then), then every hour.
    repeatWhileOpen(app, run, { firstMs: FIRST_CHECK_MS, everyMs: CHECK_MS })
  },
  { name: 'insight-summary', dependencies: ['contact-delivery'] },
)
