// `npm run bench:quarantine -- [--posts 10000] [--connections 8]`: a flood of bot posts
// against the production server, as `npm run serve` runs it, and what the quarantine
// (docs/contact.md#quarantine) makes of it: every post fills the hidden field (the honeypot) with a
// valid message, so each one is dropped, answered like a success and kept, the bounds pushing the
// oldest out. Measured three ways, each on a server of its own: without a quarantine
// (QUARANTINE_DAYS=0, what a drop costs anyway), with the folder, and with Redis when Debian's
// redis-server is installed. Prints posts answered, time per post (the load's duration divided by
// the posts, and p50/p99 latency), entries kept, bytes (the metric and the folder on disk), entries
// pushed out, and the server's RSS. Loopback only; everything started is stopped. Needs `npm run
// build` first.
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readdirSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { parseArgs } from 'node:util'
import autocannon from 'autocannon'
import { QUARANTINE_FOLDER } from '#server/services/contact/index.ts'
import { sampleIn } from '#tests/helpers/metrics.ts'
import { hasRedisServer, startRedis } from '#tests/helpers/redis.ts'
import { killAll, requireBuild, startProductionServer, stop } from './lib/processes.ts'

const { values: args } = parseArgs({
  options: {
    posts: { type: 'string', default: '10000' },
    connections: { type: 'string', default: '8' },
  },
})
const POSTS = Number(args.posts)
const CONNECTIONS = Number(args.connections)
if (!Number.isSafeInteger(POSTS) || POSTS < 1 || !Number.isSafeInteger(CONNECTIONS)) {
  console.error('--posts and --connections must be whole numbers')
  process.exit(2)
}
requireBuild()

/** A bot's post: a valid message (so it is kept) with the hidden field filled in. */
const BODY = JSON.stringify({
  name: 'Marek Kowalczyk',
  email: 'marek.kowalczyk@example.pl',
  company: 'Hurtownia Północ Sp. z o.o.',
  service: 'cloud',
  subject: 'Tanie linki dla Państwa strony',
  message:
    'Dzień dobry, oferujemy pozycjonowanie i tysiące linków w tydzień. Prosimy o kontakt, ' +
    'chętnie przedstawimy ofertę dopasowaną do Państwa potrzeb i budżetu.',
  locale: 'pl',
  website: 'https://links.example',
})

type Variant = { name: string; env: Record<string, string>; folder?: string }

function rssMb(pid: number | undefined): number {
  if (!pid) return NaN
  return Math.round(Number(execFileSync('ps', ['-o', 'rss=', '-p', String(pid)]).toString()) / 1024)
}

function folderBytes(dir: string | undefined): number | undefined {
  if (!dir) return undefined
  try {
    return readdirSync(dir).reduce((sum, name) => sum + statSync(join(dir, name)).size, 0)
  } catch {
    return 0
  }
}

async function flood(variant: Variant) {
  const { child, base, metricsUrl } = await startProductionServer(variant.env)
  try {
    const started = performance.now()
    const result = await autocannon({
      url: `${base}/api/contact`,
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: BODY,
      amount: POSTS,
      connections: CONNECTIONS,
      // Its own thread, so the generator is not also this script's event loop.
      workers: 1,
    })
    // Wall time: autocannon's own duration counts whole seconds of its sampling.
    const ms = performance.now() - started
    const statuses = result.statusCodeStats as unknown as Record<string, { count: number }>
    const metrics = await (await fetch(metricsUrl)).text()
    const files = variant.folder ? readdirSync(variant.folder).length : undefined
    return {
      variant: variant.name,
      answered202: statuses['202']?.count ?? 0,
      other: result.non2xx + result.errors + result.timeouts,
      seconds: Math.round(ms / 10) / 100,
      msPerPost: Math.round((ms / POSTS) * 1000) / 1000,
      p50: result.latency.p50,
      p99: result.latency.p99,
      entries: sampleIn(metrics, 'contact_quarantine_entries') ?? 0,
      bytes: sampleIn(metrics, 'contact_quarantine_bytes') ?? 0,
      folderFiles: files,
      folderBytes: folderBytes(variant.folder),
      kept: sampleIn(metrics, 'contact_quarantined_total{reason="honeypot"}') ?? 0,
      evicted: sampleIn(metrics, 'contact_quarantine_removed_total{cause="evicted"}') ?? 0,
      rssMb: rssMb(child.pid),
    }
  } finally {
    await stop(child)
  }
}

const work = mkdtempSync(join(tmpdir(), 'modernwerk-flood-'))
const redis = hasRedisServer() ? await startRedis({ durable: true }) : null
try {
  const outbox = (name: string) => join(work, name)
  const variants: Variant[] = [
    { name: 'no quarantine', env: { OUTBOX_DIR: outbox('off'), QUARANTINE_DAYS: '0' } },
    {
      name: 'folder',
      env: { OUTBOX_DIR: outbox('folder') },
      folder: join(outbox('folder'), QUARANTINE_FOLDER),
    },
    ...(redis
      ? [
          {
            name: 'Redis (AOF, fsync always)',
            env: { OUTBOX_DIR: outbox('redis'), REDIS_URL: redis.url },
          },
        ]
      : []),
  ]
  const rows = []
  for (const variant of variants) rows.push(await flood(variant))
  console.log(
    `${POSTS} bot posts (honeypot, valid messages) at ${CONNECTIONS} connections, defaults QUARANTINE_MAX_ENTRIES 1000 / QUARANTINE_MAX_BYTES 16 MiB${redis ? '' : ' (no redis-server: Redis not measured)'}`,
  )
  console.table(rows)
} finally {
  await redis?.dispose()
  rmSync(work, { recursive: true, force: true })
  killAll()
}
