// `npm run bench:backlog -- [--leads 12000] [--stores folder,redis]`: what a long backlog of
// waiting leads costs the server (docs/performance.md#a-backlog-of-waiting-leads). For each
// store, the store is filled with `--leads` leads of about 15 kB each (every field at its
// limit, the message in letters UTF-8 writes in two or three bytes), as a mail outage of days
// or posts at the rate limit from many addresses leave it, then the production server starts
// on it, as `npm run serve` starts it, in a memory cgroup of the chart's limit
// (scripts/lib/memory-limit.ts) and with a mail server that refuses every connection, so its
// delivery worker keeps trying. Printed per store: RSS after the start, after three scrapes of
// /metrics and a delivery pass, and after the first retention sweep (a minute after the
// start); the time of each scrape; and the pages' latency (wrk on `/`, 10 s) without and with a
// scrape every second meanwhile. Targets of the chart's defaults: RSS <= 250 MB, a scrape
// <= 100 ms, pages p99 <= 20 ms. Loopback only; everything started is stopped. Needs
// `npm run build` first, and Debian's wrk and redis-server (a store whose tool is missing is
// left out, saying so).
import { randomUUID } from 'node:crypto'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import { CONTACT_FIELDS } from '#shared/contact-fields.ts'
import type { ContactMessage } from '#shared/contact-schema.ts'
import { FileOutbox, operatorQueue, type OutboxItem } from '#server/services/contact/index.ts'
import { sampleIn } from '#tests/helpers/metrics.ts'
import { hasRedisServer, startRedis } from '#tests/helpers/redis.ts'
import { chartMemoryLimitMiB, heapLimitIn, inCgroup, memoryCgroup } from './lib/memory-limit.ts'
import { freePort, killAll, requireBuild, startProductionServer, stop } from './lib/processes.ts'
import { HAS_WRK, runWrk, type WrkResult } from './lib/wrk.ts'

const { values: args } = parseArgs({
  options: {
    leads: { type: 'string', default: '12000' },
    stores: { type: 'string', default: 'folder,redis' },
  },
})
const LEADS = Number(args.leads)
if (!Number.isSafeInteger(LEADS) || LEADS < 1) {
  console.error('--leads must be a whole number')
  process.exit(2)
}
const STORES = args.stores.split(',').map((store) => store.trim())
requireBuild()
if (!HAS_WRK) {
  console.error("No wrk: apt-get install wrk (the pages' latency is measured with it)")
  process.exit(2)
}

/** A value of `length` characters that UTF-8 writes in about 2.6 bytes each. */
function text(length: number): string {
  const words = '€–„” '
  return words
    .repeat(Math.ceil(length / words.length))
    .slice(0, length)
    .trim()
}

/** A lead with every text field at its limit. */
function lead(index: number): OutboxItem {
  const message: Record<string, string> = { locale: 'pl' }
  for (const field of CONTACT_FIELDS) {
    if ('options' in field) message[field.name] = field.options[0]?.value ?? ''
    else if (field.kind === 'email') message[field.name] = `lead${index}@example.pl`
    else message[field.name] = text(field.max)
  }
  const receivedAt = new Date(Date.now() - (LEADS - index) * 60_000).toISOString()
  return { id: randomUUID(), receivedAt, message: message as ContactMessage }
}

/** Puts every lead, 64 at a time; resolves with their bytes as JSON. */
async function fill(put: (item: OutboxItem) => Promise<void>): Promise<number> {
  let bytes = 0
  for (let start = 0; start < LEADS; start += 64) {
    const batch = Array.from({ length: Math.min(64, LEADS - start) }, (_, i) => lead(start + i))
    for (const item of batch) bytes += Buffer.byteLength(JSON.stringify(item))
    await Promise.all(batch.map(put))
  }
  return bytes
}

function rssMb(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? NaN) / 1024)
}

async function scrape(url: string): Promise<{ ms: number; body: string }> {
  const started = performance.now()
  const body = await (await fetch(url)).text()
  return { ms: Math.round((performance.now() - started) * 10) / 10, body }
}

const cgroup = memoryCgroup(chartMemoryLimitMiB())
process.on('exit', () => {
  if (typeof cgroup !== 'string') cgroup.remove()
})
const wrap =
  typeof cgroup === 'string'
    ? undefined
    : (command: string, argv: string[]) => inCgroup(cgroup, command, argv)

async function measure(store: string) {
  const work = mkdtempSync(join(tmpdir(), `modernwerk-backlog-${store}-`))
  const redis = store === 'redis' ? await startRedis({ durable: true }) : null
  try {
    const outboxDir = join(work, 'outbox')
    const filled = performance.now()
    let bytes
    if (redis) {
      const queue = operatorQueue(redis.url)
      await queue.queue.waitUntilReady()
      bytes = await fill((item) => queue.put(item))
      await queue.close()
    } else {
      const outbox = new FileOutbox(outboxDir)
      await outbox.init()
      bytes = await fill((item) => outbox.put(item))
    }
    const fillSeconds = Math.round((performance.now() - filled) / 100) / 10
    const { child, base, metricsUrl } = await startProductionServer(
      {
        OUTBOX_DIR: outboxDir,
        SMTP_URL: `smtp://127.0.0.1:${await freePort()}`,
        ...(redis ? { REDIS_URL: redis.url } : {}),
      },
      wrap,
    )
    const startedAt = performance.now()
    try {
      const afterStart = rssMb(child.pid)
      const scrapes = []
      for (let i = 0; i < 3; i++) scrapes.push(await scrape(metricsUrl))
      const waiting = sampleIn(scrapes[2]?.body ?? '', 'contact_outbox_depth') ?? NaN
      // A delivery pass: the worker tried a message (the relay refuses) and went on waiting.
      for (let i = 0; i < 100; i++) {
        const { body } = await scrape(metricsUrl)
        if ((sampleIn(body, 'contact_deliveries_total{result="failed"}') ?? 0) > 0) break
        await new Promise((resolve) => setTimeout(resolve, 200))
      }
      const afterScrapes = rssMb(child.pid)
      // Warmed up first (JIT, the page kept in memory), as a serving pod is.
      await runWrk(`${base}/`, { connections: 8, seconds: 3 })
      const quiet = await runWrk(`${base}/`, { connections: 8, seconds: 10 })
      const scraping = { isOn: true }
      const during: number[] = []
      const loop = (async () => {
        while (scraping.isOn) {
          during.push((await scrape(metricsUrl)).ms)
          await new Promise((resolve) => setTimeout(resolve, 1_000))
        }
      })()
      const scraped: WrkResult = await runWrk(`${base}/`, { connections: 8, seconds: 10 })
      scraping.isOn = false
      await loop
      // The first retention sweep runs a minute after the start: it lists every message too.
      const sweepAt = 65_000 - (performance.now() - startedAt)
      if (sweepAt > 0) await new Promise((resolve) => setTimeout(resolve, sweepAt))
      await scrape(metricsUrl)
      const afterSweep = rssMb(child.pid)
      return {
        store,
        leads: waiting,
        'MB stored': Math.round(bytes / 1e5) / 10,
        'fill s': fillSeconds,
        'RSS start MB': afterStart,
        'RSS 3 scrapes + pass MB': afterScrapes,
        'RSS after sweep MB': afterSweep,
        'scrapes ms': scrapes.map((s) => s.ms).join(' / '),
        'scrape max ms (load)': Math.max(...during),
        'pages p50/p99 ms': `${quiet.p50} / ${quiet.p99}`,
        'pages p50/p99 ms, scraped': `${scraped.p50} / ${scraped.p99}`,
        'pages req/s, scraped': Math.round(scraped.rps),
      }
    } finally {
      await stop(child)
    }
  } finally {
    await redis?.dispose()
    rmSync(work, { recursive: true, force: true })
  }
}

try {
  const rows = []
  for (const store of STORES) {
    if (store === 'redis' && !hasRedisServer()) {
      console.warn('No redis-server (apt-get install redis-server): the Redis store is left out')
      continue
    }
    if (store !== 'folder' && store !== 'redis') throw new Error(`unknown store ${store}`)
    rows.push(await measure(store))
  }
  console.log(
    `${LEADS} waiting leads per store; ${typeof cgroup === 'string' ? `host memory (no cgroup: ${cgroup})` : `server in a memory cgroup of ${cgroup.mib} MiB (the chart's limit), V8 heap limit ${Math.round(heapLimitIn(cgroup))} MB`}; wrk -c8 on / for 10 s`,
  )
  console.table(rows)
} finally {
  killAll()
}
