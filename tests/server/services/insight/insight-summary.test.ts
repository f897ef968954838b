import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { dueSummary } from '#server/services/insight/insight-summary.ts'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import { eventually } from '#tests/helpers/eventually.ts'
import { sampleIn } from '#tests/helpers/metrics.ts'
import {
  HAS_PROMETHEUS,
  startPrometheus,
  WEEK_STEPS,
  type Series,
} from '#tests/helpers/prometheus.ts'
import { hasRedisServer, startRedis } from '#tests/helpers/redis.ts'
import { startSmtpServer } from '#tests/helpers/smtp.ts'

/**
 * The weekly insight summary (docs/insight.md#insight-which-pages-bring-leads): due Mondays from
 * 06:00 UTC for the week to Monday 00:00 UTC; with `INSIGHT_SUMMARY_PROMETHEUS_URL` set, read from
 * a real Prometheus, queued in the contact outbox and delivered over real SMTP to `MAIL_TO`, once
 * per week across restarts and replicas.
 */

describe('dueSummary', () => {
  it.each([
    // Monday 30 November 2026, before and after 06:00 UTC.
    ['2026-11-30T05:59:59Z', '2026-11-23'],
    ['2026-11-30T06:00:00Z', '2026-11-30'],
    ['2026-12-03T12:00:00Z', '2026-11-30'],
    // Sunday is the last day of the week.
    ['2026-12-06T23:59:59Z', '2026-11-30'],
    ['2027-01-04T06:00:00Z', '2027-01-04'],
  ])('at %s covers the week to %s', (now, week) => {
    const due = dueSummary(new Date(now))
    expect(due.week).toBe(week)
    expect(due.until.toISOString()).toBe(`${week}T00:00:00.000Z`)
  })

  it("gives each week one id of a message's shape, the same every time", () => {
    const monday = dueSummary(new Date('2026-11-30T07:00:00Z'))
    // Version 8 (a site mail's), where a post's id must be version 4.
    expect(monday.id).toMatch(
      /^[0-9a-f]{8}-[0-9a-f]{4}-8[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/,
    )
    expect(dueSummary(new Date('2026-12-05T07:00:00Z')).id).toBe(monday.id)
    expect(dueSummary(new Date('2026-12-07T07:00:00Z')).id).not.toBe(monday.id)
  })
})

if (!HAS_PROMETHEUS) {
  console.warn('prometheus or promtool not installed (apt-get install prometheus): summary skipped')
}

/** The Monday the test's data ends on; the summary runs that day at 07:00 UTC. */
const MONDAY = dueSummary(new Date()).until
const RUN_AT = new Date(MONDAY.getTime() + 7 * 3_600_000)
const WEB = 'namespace="web",service="website"'
const SERIES: Series[] = [
  {
    family: 'page_views',
    labels: `${WEB},page="home",locale="en",source="google"`,
    growth: (ago) => (ago < WEEK_STEPS ? 2 : 1),
  },
  {
    family: 'contact_leads',
    labels: `${WEB},form="contact",page="contact",locale="en",interest="other"`,
    growth: () => 1 / 8,
  },
  // Another deployment, which the selector leaves out.
  {
    family: 'page_views',
    labels: 'namespace="staging",service="website",page="home",locale="en",source="none"',
    growth: () => 10,
  },
]

describe.skipIf(!HAS_PROMETHEUS)('the weekly summary', { timeout: 60_000 }, () => {
  let prometheus: Awaited<ReturnType<typeof startPrometheus>>
  let smtp: Awaited<ReturnType<typeof startSmtpServer>>
  const apps: FastifyInstance[] = []
  const dirs: string[] = []

  beforeAll(async () => {
    smtp = await startSmtpServer()
    prometheus = await startPrometheus(SERIES, MONDAY.getTime() / 1000)
  }, 120_000)

  afterEach(async () => {
    await Promise.all(apps.splice(0).map((app) => app.close()))
    smtp.received.length = 0
  })

  afterAll(async () => {
    await smtp.stop()
    prometheus.stop()
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
  })

  function outboxDir() {
    const dir = mkdtempSync(join(tmpdir(), 'outbox-'))
    dirs.push(dir)
    return dir
  }

  async function site(env: Record<string, string>) {
    const app = await buildTestApp(
      {
        SMTP_URL: smtp.url,
        MAIL_FROM: 'Website <website@modernwerk.example>',
        MAIL_TO: 'partners@modernwerk.example',
        INSIGHT_SUMMARY_PROMETHEUS_URL: prometheus.url,
        INSIGHT_SUMMARY_SELECTOR: 'namespace="web"',
        ...env,
      },
      { deliveryPollMs: 100, firstRetryMs: 100 },
    )
    apps.push(app)
    return app
  }

  function summaryOf(app: FastifyInstance) {
    if (!app.insightSummary) throw new Error('the summary is off')
    return app.insightSummary
  }

  it('is off unless a Prometheus is set', async () => {
    const app = await site({ INSIGHT_SUMMARY_PROMETHEUS_URL: '' })
    expect(app.insightSummary).toBeNull()
  })

  it("mails the week's figures to MAIL_TO once, also across a restart, and it is no lead", async () => {
    const dir = outboxDir()
    const first = await site({ OUTBOX_DIR: dir })
    expect(await summaryOf(first).run(RUN_AT)).toBe('queued')
    await eventually(() => smtp.received.length === 1)
    const [sent] = smtp.received
    const lastDay = new Intl.DateTimeFormat('en-GB', { dateStyle: 'long', timeZone: 'UTC' }).format(
      new Date(MONDAY.getTime() - 86_400_000),
    )
    expect(sent?.mail.subject).toBe(`Website insight: the week to ${lastDay}`)
    expect(sent?.envelopeTo).toEqual(['partners@modernwerk.example'])
    const text = sent?.mail.text ?? ''
    // The week: home 2 × 168 hours (twice the week before), the contact form 168 / 8 leads.
    expect(text).toContain('Views: 336 (+100% on the 7 days before)')
    expect(text).toContain('Leads: 21 (0% on the 7 days before)')
    expect(text).toContain('Leads per 100 views: 6.3')
    expect(text).toContain('Views: 888 (+23% on the 30 days before)')
    // Only the deployment the selector names; no personal data to be seen.
    expect(text).not.toContain('2,016')
    // A whole HTML document saying the same, a Date, and a Message-ID made from the week: a
    // summary delivered twice (acknowledgement lost) is recognisable as one.
    const html = sent?.mail.html || ''
    expect(html).toMatch(/^<!doctype html>\n<html lang="en">\n<head>\n<meta charset="utf-8">/)
    expect(html).toContain(`<title>Website insight: the week to ${lastDay}</title>`)
    expect(html).toContain('Views: 336 (+100% on the 7 days before)')
    expect(html).not.toMatch(/<(script|img|link|style)\b|\bsrc=/i)
    expect(sent?.raw).toMatch(/^Content-Type: multipart\/alternative;/m)
    expect(sent?.raw).toMatch(/^Date: .+\d{4} \d\d:\d\d:\d\d [+-]\d{4}\r$/m)
    expect(sent?.mail.messageId).toBe(`<${dueSummary(RUN_AT).id}@modernwerk.example>`)
    expect(await summaryOf(first).run(RUN_AT)).toBe('alreadyQueued')
    // Not a lead: the contact metrics do not count it.
    const metrics = (await first.inject({ url: '/metrics' })).body
    expect(sampleIn(metrics, 'contact_deliveries_total{result="delivered"}') ?? 0).toBe(0)
    await first.close()

    const restarted = await site({ OUTBOX_DIR: dir })
    expect(await summaryOf(restarted).run(RUN_AT)).toBe('alreadyQueued')
    // The next week is a summary of its own.
    const nextWeek = new Date(RUN_AT.getTime() + 7 * 86_400_000)
    expect(await summaryOf(restarted).run(nextWeek)).toBe('queued')
    await eventually(() => smtp.received.length === 2)
    await new Promise((resolve) => setTimeout(resolve, 500))
    expect(smtp.received).toHaveLength(2)
    expect(smtp.received[1]?.mail.messageId).toBe(`<${dueSummary(nextWeek).id}@modernwerk.example>`)
  })

  it('tries again later when Prometheus cannot be reached, queueing nothing meanwhile', async () => {
    const app = await site({
      OUTBOX_DIR: outboxDir(),
      INSIGHT_SUMMARY_PROMETHEUS_URL: 'http://127.0.0.1:9',
    })
    expect(await summaryOf(app).run(RUN_AT)).toBe('failed')
    expect(await summaryOf(app).run(RUN_AT)).toBe('failed')
    expect(await app.contact.outbox.size()).toBe(0)
  })

  it.skipIf(!hasRedisServer())('is sent by one replica of several sharing Redis', async () => {
    const redis = await startRedis()
    try {
      const replicas = [
        await site({ OUTBOX_DIR: outboxDir(), REDIS_URL: redis.url }),
        await site({ OUTBOX_DIR: outboxDir(), REDIS_URL: redis.url }),
      ]
      const outcomes = await Promise.all(replicas.map((app) => summaryOf(app).run(RUN_AT)))
      expect(outcomes.sort()).toEqual(['alreadyQueued', 'queued'])
      await eventually(() => smtp.received.length === 1)
      await new Promise((resolve) => setTimeout(resolve, 500))
      expect(smtp.received).toHaveLength(1)
    } finally {
      await Promise.all(apps.splice(0).map((app) => app.close()))
      await redis.stop()
    }
  })
})
