// `npm run bench`: the production server against, in the same run, nginx serving the same pages
// saved as files (a tiny Node static server when nginx is missing), node's bare `http` server
// and a bare Fastify route replying precomputed buffers (the Node ceilings). Every server sends
// the same bytes: our body and our response headers (security headers, ETag, Vary, …), so the
// ratios measure the work per request, not the size of the header block.
// Each server runs alone, loaded on loopback with the same connections and duration by wrk
// (scripts/lib/wrk.ts; with taskset the server gets core 0 and wrk core 1), or by autocannon
// with a worker thread when wrk is missing; the bench says which. The table gives requests/s,
// p50/p99 latency, errors and the ratios ours/nginx and ours/Fastify per URL.
//
// `npm run bench -- --soak` runs mixed traffic (pages, assets, contact posts delivered to a
// local SMTP server) for a few minutes and prints RSS at start and end and the errors.
//
// Our server runs in a memory cgroup of the chart's limit (`resources.limits.memory`), as a
// replica runs in its pod: Node.js sizes V8's heap from that limit, so RSS and collection
// pauses are a replica's (scripts/lib/memory-limit.ts). It needs root and a writable cgroup
// hierarchy; elsewhere, or with `--memory-limit none`, the server runs with the host's memory
// and the bench says so.
//
// Options: --duration <s> per URL (10), --connections <n> (64), --soak-minutes <m> (3),
// --memory-limit <MiB|chart|none> (chart).
// Loopback only; everything started is stopped, also on Ctrl-C. Needs `npm run build` first.
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { parseArgs } from 'node:util'
import { execFileSync } from 'node:child_process'
import { get, type IncomingHttpHeaders } from 'node:http'
import autocannon from 'autocannon'
import { PROOF_FIELD, TOKEN_FIELD } from '#shared/contact-fields.ts'
import { personProof, personToken, TEST_TOKEN_SECRET } from '#tests/helpers/form-token.ts'
import { NGINX, nginxConfigHead } from '#tests/helpers/nginx.ts'
import { startSmtpServer } from '#tests/helpers/smtp.ts'
import {
  freePort,
  killAll,
  requireBuild,
  ROOT,
  start,
  startProductionServer,
  stop,
  waitFor,
} from './lib/processes.ts'
import { chartMemoryLimitMiB, heapLimitIn, inCgroup, memoryCgroup } from './lib/memory-limit.ts'
import { savedKey, type SavedPage } from './lib/saved-answers.ts'
import { HAS_TASKSET, HAS_WRK, runWrk } from './lib/wrk.ts'

const { values: args } = parseArgs({
  options: {
    soak: { type: 'boolean', default: false },
    duration: { type: 'string', default: '10' },
    connections: { type: 'string', default: '64' },
    'soak-minutes': { type: 'string', default: '3' },
    'memory-limit': { type: 'string', default: 'chart' },
  },
})
const DURATION = positive(args.duration, '--duration')
const CONNECTIONS = positive(args.connections, '--connections')
const SOAK_MINUTES = positive(args['soak-minutes'], '--soak-minutes')
const MEMORY_LIMIT_MIB =
  args['memory-limit'] === 'none'
    ? null
    : args['memory-limit'] === 'chart'
      ? chartMemoryLimitMiB()
      : positive(args['memory-limit'], '--memory-limit')

function positive(value: string, name: string): number {
  const number = Number(value)
  if (!Number.isFinite(number) || number <= 0) {
    console.error(`${name} must be a positive number, got ${value}`)
    process.exit(2)
  }
  return number
}

requireBuild()

const manifest = JSON.parse(
  readFileSync(join(ROOT, 'dist', 'client', '.vite', 'manifest.json'), 'utf8'),
) as Record<string, { file: string; name?: string }>
const frameworkAsset = Object.values(manifest).find((chunk) => chunk.name === 'framework')?.file
if (!frameworkAsset) throw new Error('The manifest has no framework chunk')

const NOT_FOUND_PATH = '/this-page-does-not-exist'

/** What current Chromium, Edge and Firefox send with every request (Safari: without zstd). */
const BROWSER_ENCODINGS = 'gzip, deflate, br, zstd'

type Target = { label: string; path: string; status: number; acceptsBrotli?: boolean }

/**
 * What is measured: three pages of different types and locales, the home page from a campaign
 * link, the framework chunk as it is and as browsers ask for it (Brotli), and the 404. Pages
 * and the 404 are asked for as they are, so every server sends the same bytes.
 */
const TARGETS: Target[] = [
  { label: '/', path: '/', status: 200 },
  {
    label: '/de/services/security-compliance',
    path: '/de/services/security-compliance',
    status: 200,
  },
  { label: '/pl/contact', path: '/pl/contact', status: 200 },
  {
    label: '/?utm_source=… (campaign)',
    path: '/?utm_source=newsletter&utm_medium=email&utm_campaign=winter',
    status: 200,
  },
  { label: 'asset (framework JS)', path: `/${frameworkAsset}`, status: 200 },
  {
    label: 'asset (framework JS, br)',
    path: `/${frameworkAsset}`,
    status: 200,
    acceptsBrotli: true,
  },
  { label: '404', path: NOT_FOUND_PATH, status: 404 },
]

const work = mkdtempSync(join(tmpdir(), 'bench-'))
process.on('exit', () => rmSync(work, { recursive: true, force: true }))

/** A process and its children (nginx: master and worker). */
function processTree(pid: number): number[] {
  const pids = [pid]
  try {
    const children = readFileSync(`/proc/${pid}/task/${pid}/children`, 'utf8').trim()
    if (children) pids.push(...children.split(/\s+/).map(Number))
  } catch {
    // no children file: the process alone
  }
  return pids
}

/** Resident memory of a process and its children, in MB. */
function rssMb(pid: number | undefined): number {
  if (!pid) return 0
  let kb = 0
  for (const id of processTree(pid)) {
    const status = readFileSync(`/proc/${id}/status`, 'utf8')
    kb += Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0)
  }
  return kb / 1024
}

type Measure = { rps: number; p50: number; p99: number; errors: number }

/**
 * What a person's browser sends with a page request (a user agent, `Sec-Fetch-Dest`, a
 * referrer), so our server does all it does for a visitor, counting the view included
 * (docs/insight.md#insight-which-pages-bring-leads). Every server gets the same request.
 */
const BROWSER_HEADERS = {
  'User-Agent':
    'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36',
  'Sec-Fetch-Dest': 'document',
  Referer: 'https://www.google.de/',
}

async function load(base: string, target: Target, duration: number): Promise<Measure> {
  const url = base + target.path
  const expected = target.status
  const headers = target.acceptsBrotli
    ? { ...BROWSER_HEADERS, 'Accept-Encoding': BROWSER_ENCODINGS }
    : BROWSER_HEADERS
  if (HAS_WRK) {
    const result = await runWrk(url, { connections: CONNECTIONS, seconds: duration, headers })
    // wrk counts answers outside 2xx/3xx: for the 404 target those are the expected ones.
    const unexpected = expected < 400 ? result.non2xx3xx : result.requests - result.non2xx3xx
    return {
      rps: result.rps,
      p50: result.p50,
      p99: result.p99,
      errors: result.socketErrors + unexpected,
    }
  }
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration,
    headers,
    pipelining: 1,
    // Its own thread, so the generator is not also the bench's event loop.
    workers: 1,
  })
  const statuses = result.statusCodeStats as unknown as Record<string, { count: number }>
  const unexpected = Object.entries(statuses)
    .filter(([status]) => Number(status) !== expected)
    .reduce((sum, [, { count }]) => sum + count, 0)
  return {
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + unexpected,
  }
}

/** The server under test and its children (nginx's worker) on core 0, the load on core 1. */
function pin(pid: number | undefined) {
  if (!HAS_TASKSET || !pid) return
  for (const id of processTree(pid))
    execFileSync('taskset', ['-a', '-p', '-c', '0', String(id)], { stdio: 'ignore' })
}

async function benchServer(base: string, pid: number | undefined) {
  pin(pid)
  // Warm up: the page cache fills, the JIT compiles the hot paths.
  for (const target of TARGETS) await load(base, target, 1)
  const results: Measure[] = []
  for (const target of TARGETS) results.push(await load(base, target, DURATION))
  return results
}

/** The production server, its outbox in the bench's temporary folder. */
/** The memory cgroup our server runs in, made once; a string says why there is none. */
const cgroup = MEMORY_LIMIT_MIB === null ? 'not asked for' : memoryCgroup(MEMORY_LIMIT_MIB)
/** Our server stopped: its cgroup goes too (a group with a process left in it stays). */
function removeCgroup() {
  if (typeof cgroup !== 'string') cgroup.remove()
}
process.on('exit', removeCgroup)

/** How our server's memory is bounded, for the bench's header line. */
function memoryNote(): string {
  if (typeof cgroup === 'string') {
    return `our server with the host's memory (no memory cgroup: ${cgroup})`
  }
  return `our server in a memory cgroup of ${fmt(cgroup.mib)} MiB${args['memory-limit'] === 'chart' ? " (the chart's limit)" : ''}, V8 heap limit ${fmt(heapLimitIn(cgroup))} MB`
}

function startOurs(extraEnv: Record<string, string> = {}) {
  return startProductionServer(
    { OUTBOX_DIR: join(work, 'outbox'), ...extraEnv },
    typeof cgroup === 'string' ? undefined : (command, argv) => inCgroup(cgroup, command, argv),
  )
}

/** Headers every server writes itself (framing, date, connection); the rest are replayed. */
const OWN_HEADERS = new Set([
  'content-type',
  'content-length',
  'transfer-encoding',
  'date',
  'connection',
  'keep-alive',
])

/** Save the pages exactly as our server answers them, for the static server and the baseline. */
async function savePages(base: string) {
  const site = join(work, 'site')
  const pages: Record<string, SavedPage> = {}
  for (const target of TARGETS) {
    const response = await rawGet(
      base + target.path,
      target.acceptsBrotli ? BROWSER_ENCODINGS : 'identity',
    )
    if (response.status !== target.status) {
      throw new Error(`${target.path} answered ${response.status}, not ${target.status}`)
    }
    const pathname = new URL(target.path, base).pathname
    const relative = pathname.startsWith('/assets/')
      ? `${pathname}${target.acceptsBrotli ? '.br' : ''}`
      : target.status === 404
        ? '/404.html'
        : `${pathname.replace(/\/$/, '')}/index.html`
    const file = join(site, relative)
    mkdirSync(dirname(file), { recursive: true })
    writeFileSync(file, response.body)
    const type = response.headers['content-type'] ?? 'application/octet-stream'
    const headers: Record<string, string> = {}
    for (const [name, value] of Object.entries(response.headers)) {
      if (!OWN_HEADERS.has(name) && typeof value === 'string') headers[name] = value
    }
    const key =
      target.status === 404 ? '/404' : savedKey(target.path, target.acceptsBrotli === true)
    pages[key] = { file, status: target.status, type, headers }
  }
  const pagesFile = join(work, 'pages.json')
  writeFileSync(pagesFile, JSON.stringify(pages))
  return { site, pagesFile, pages }
}

async function startBaseline(pagesFile: string, mode: 'fastify' | 'http') {
  const port = await freePort()
  const child = start(process.execPath, [
    'scripts/bench/baseline-server.ts',
    String(port),
    pagesFile,
    ...(mode === 'http' ? ['--http'] : []),
  ])
  const base = `http://127.0.0.1:${port}`
  await waitFor(`${base}/`, child)
  return { child, base }
}

/** nginx's `add_header` lines for a saved page's headers (values quoted, quotes escaped). */
function nginxHeaders(page: SavedPage): string {
  return Object.entries(page.headers)
    .map(([name, value]) => `add_header ${name} "${value.replaceAll('"', '\\"')}" always;`)
    .join(' ')
}

/**
 * One exact `location` per saved page, sending that page's headers; a file's Brotli form is sent
 * to a request that accepts it (as `brotli_static` would, without the module). A URL with a
 * query is its path's location: nginx matches locations without the query.
 */
function nginxLocations(pages: Record<string, SavedPage>, site: string): string {
  return Object.entries(pages)
    .filter(([path]) => !path.includes('?'))
    .map(([path, page]) => {
      const file = page.file.slice(site.length)
      if (path === '/404') return `    location = ${file} { internal; ${nginxHeaders(page)} }\n`
      if (path.endsWith('.br')) {
        return `    location = ${path} { internal; types { } default_type ${page.type.split(';')[0]}; ${nginxHeaders(page)} }\n`
      }
      const brotli = pages[savedKey(path, true)]
        ? `if ($http_accept_encoding ~ "\\bbr\\b") { rewrite ^ ${savedKey(path, true)} last; } `
        : ''
      return `    location = ${path} { ${brotli}try_files ${file} =404; ${nginxHeaders(page)} }\n`
    })
    .join('')
}

async function startStatic(site: string, pages: Record<string, SavedPage>) {
  const port = await freePort()
  const base = `http://127.0.0.1:${port}`
  if (NGINX) {
    const conf = join(work, 'nginx.conf')
    // One worker, like our one Node process; files from the page cache's equivalent: the disk
    // cache of the kernel.
    writeFileSync(
      conf,
      `${nginxConfigHead(work, 4096)}  sendfile on;
  tcp_nopush on;
  keepalive_requests 1000000;
  etag off;
  server_tokens off;
  charset utf-8;
  charset_types text/html text/javascript;
  types { text/html html; text/javascript js; text/css css; }
  server {
    listen 127.0.0.1:${port};
    root ${site};
    error_page 404 /404.html;
${nginxLocations(pages, site)}    location / { return 404; }
  }
}
`,
    )
    const child = start(NGINX, ['-c', conf, '-e', join(work, 'nginx-error.log')])
    await waitFor(`${base}/`, child)
    return { child, base, name: 'nginx' }
  }
  // No nginx: a Node server reading each saved page from disk per request, same headers.
  const child = start(process.execPath, [
    '--input-type=module',
    '-e',
    `import { createServer } from 'node:http'
import { readFile } from 'node:fs/promises'
const pages = ${JSON.stringify(pages)}
createServer(async (request, response) => {
  const brotli = /\\bbr\\b/.test(request.headers['accept-encoding'] ?? '') ? pages[request.url + '.br'] : undefined
  const page = brotli ?? pages[request.url] ?? pages['/404']
  const body = await readFile(page.file)
  response.writeHead(page.status, { 'content-type': page.type, ...page.headers }).end(body)
}).listen(${port}, '127.0.0.1')`,
  ])
  await waitFor(`${base}/`, child)
  return { child, base, name: 'node static' }
}

const fmt = (value: number, digits = 0) => value.toFixed(digits)

/** A GET whose body is kept as sent (fetch would decode a compressed one). */
function rawGet(
  url: string,
  acceptEncoding: string,
): Promise<{ status: number; headers: IncomingHttpHeaders; body: Buffer }> {
  return new Promise((resolve, reject) => {
    get(url, { headers: { 'accept-encoding': acceptEncoding } }, (response) => {
      const chunks: Buffer[] = []
      response.on('data', (chunk: Buffer) => chunks.push(chunk))
      response.on('end', () =>
        resolve({
          status: response.statusCode ?? 0,
          headers: response.headers,
          body: Buffer.concat(chunks),
        }),
      )
      response.on('error', reject)
    }).on('error', reject)
  })
}

function at<T>(list: readonly T[], index: number): T {
  const item = list[index]
  if (item === undefined) throw new Error(`no result ${index}`)
  return item
}

async function bench() {
  const generator = HAS_WRK
    ? `wrk, 1 thread${HAS_TASKSET ? ', core 1 (servers on core 0, taskset)' : ''}`
    : 'autocannon with a worker thread (wrk not found: its figures cap the fast servers)'
  console.log(
    `bench: ${generator}; ${CONNECTIONS} connections, ${DURATION} s per URL, loopback, one server at a time\n${memoryNote()}\n`,
  )
  const ours = await startOurs()
  const { site, pagesFile, pages } = await savePages(ours.base)
  const rssBefore = rssMb(ours.child.pid)
  const oursResults = await benchServer(ours.base, ours.child.pid)
  const oursRss = rssMb(ours.child.pid)
  await stop(ours.child)
  removeCgroup()

  const fastify = await startBaseline(pagesFile, 'fastify')
  const fastifyResults = await benchServer(fastify.base, fastify.child.pid)
  await stop(fastify.child)

  const http = await startBaseline(pagesFile, 'http')
  const httpResults = await benchServer(http.base, http.child.pid)
  await stop(http.child)

  const staticServer = await startStatic(site, pages)
  const staticResults = await benchServer(staticServer.base, staticServer.child.pid)
  await stop(staticServer.child)

  const header = [
    'URL'.padEnd(34),
    'server'.padEnd(12),
    'req/s'.padStart(8),
    'p50 ms'.padStart(7),
    'p99 ms'.padStart(7),
    'errors'.padStart(7),
  ].join(' ')
  console.log(header)
  console.log('-'.repeat(header.length))
  let generatorBound = false
  for (const [index, target] of TARGETS.entries()) {
    const rows: [string, Measure][] = [
      ['ours', at(oursResults, index)],
      ['fastify buf', at(fastifyResults, index)],
      ['node:http', at(httpResults, index)],
      [staticServer.name, at(staticResults, index)],
    ]
    for (const [name, measure] of rows) {
      console.log(
        [
          (name === 'ours' ? target.label : '').padEnd(34),
          name.padEnd(12),
          fmt(measure.rps).padStart(8),
          fmt(measure.p50, 1).padStart(7),
          fmt(measure.p99, 1).padStart(7),
          String(measure.errors).padStart(7),
        ].join(' '),
      )
    }
    const [ours, fastifyBuf, bareHttp, files] = rows.map(([, measure]) => measure.rps) as [
      number,
      number,
      number,
      number,
    ]
    console.log(
      `${''.padEnd(34)} ours/${staticServer.name} ${fmt(ours / files, 2)}, ours/fastify ${fmt(ours / fastifyBuf, 2)}, node:http/${staticServer.name} ${fmt(bareHttp / files, 2)}`,
    )
    if (bareHttp > 0.8 * files) generatorBound = true
  }
  console.log(
    `\nRSS of our server: ${fmt(rssBefore)} MB before, ${fmt(oursRss)} MB after the benchmark`,
  )
  if (generatorBound) {
    console.log(
      'note: node:http came within 20 % of the static server on some URL: the load generator may be the limit there',
    )
  }
  const errors = [...oursResults, ...fastifyResults, ...httpResults, ...staticResults].reduce(
    (sum, measure) => sum + measure.errors,
    0,
  )
  if (errors > 0) {
    console.error(`${errors} requests failed or answered an unexpected status`)
    process.exitCode = 1
  }
}

async function soak() {
  const smtp = await startSmtpServer()
  const ours = await startOurs({
    SMTP_URL: smtp.url,
    MAIL_FROM: 'website@example.com',
    MAIL_TO: 'sales@example.com',
    CONTACT_RATE_MAX: '10000',
    // The soak's posts carry tokens signed as a person's form has them
    // (docs/contact.md#spam-defence).
    CONTACT_TOKEN_SECRET: TEST_TOKEN_SECRET,
  })
  const seconds = SOAK_MINUTES * 60
  console.log(`soak: ${seconds} s of mixed traffic on ${ours.base}; ${memoryNote()}`)
  const rssStart = rssMb(ours.child.pid)
  const pages = [
    '/',
    '/de',
    '/pl/services',
    '/de/services/cloud-infrastructure',
    '/pl/contact',
    '/about',
    '/de/team/jonas-weber',
    '/pl/privacy-policy',
    NOT_FOUND_PATH,
  ]
  const pageLoad = autocannon({
    url: ours.base,
    connections: 16,
    duration: seconds,
    requests: [...pages, `/${frameworkAsset}`].map((path) => ({ method: 'GET', path })),
  })
  let posted = 0
  // Solved before the run (autocannon builds requests synchronously): one per message.
  const proofs = await Promise.all(Array.from({ length: seconds * 5 + 50 }, () => personProof()))
  const contactLoad = autocannon({
    url: ours.base,
    connections: 2,
    duration: seconds,
    overallRate: 5,
    requests: [
      {
        method: 'POST',
        path: '/api/contact',
        headers: { 'content-type': 'application/json' },
        setupRequest: (request) => {
          posted++
          return {
            ...request,
            body: JSON.stringify({
              name: 'Soak Test',
              email: 'soak@example.com',
              service: 'cloud',
              message: `Soak message number ${posted}: please ignore this test.`,
              locale: 'en',
              [TOKEN_FIELD]: personToken('contact', 'en'),
              // One solution per message, as a person's browser sends
              // (docs/contact.md#spam-defence).
              [PROOF_FIELD]: proofs[posted % proofs.length],
            }),
          }
        },
      },
    ],
  })
  const samples: number[] = []
  const sampler = setInterval(() => samples.push(rssMb(ours.child.pid)), 10_000)
  const [pageResult, contactResult] = await Promise.all([pageLoad, contactLoad])
  clearInterval(sampler)
  const accepted =
    (contactResult.statusCodeStats as unknown as Record<string, { count: number }>)['202']?.count ??
    0
  // Delivery is asynchronous: wait (bounded) for the outbox to drain.
  for (let waited = 0; smtp.received.length < accepted && waited < 60_000; waited += 250) {
    await new Promise((resolve) => setTimeout(resolve, 250))
  }
  const rssEnd = rssMb(ours.child.pid)
  await stop(ours.child)
  removeCgroup()
  await smtp.stop()
  const pageStatuses = pageResult.statusCodeStats as unknown as Record<string, { count: number }>
  const pageErrors =
    pageResult.errors +
    pageResult.timeouts +
    Object.entries(pageStatuses)
      .filter(([status]) => status !== '200' && status !== '404')
      .reduce((sum, [, { count }]) => sum + count, 0)
  const contactErrors =
    contactResult.errors + contactResult.timeouts + (contactResult.requests.total - accepted)
  console.log(
    `pages and assets: ${pageResult.requests.total} requests, ${fmt(pageResult.requests.average)} req/s, p99 ${pageResult.latency.p99} ms, errors ${pageErrors}`,
  )
  console.log(
    `contact posts: ${contactResult.requests.total} sent, ${accepted} accepted, ${smtp.received.length} delivered, errors ${contactErrors}`,
  )
  console.log(
    `RSS: ${fmt(rssStart)} MB at start, ${fmt(rssEnd)} MB at end (samples every 10 s: ${samples.map((mb) => fmt(mb)).join(', ')})`,
  )
  const lost = accepted - smtp.received.length
  if (pageErrors + contactErrors > 0 || lost !== 0) {
    console.error(
      `soak failed: ${pageErrors + contactErrors} errors, ${lost} accepted messages not delivered`,
    )
    process.exitCode = 1
  }
}

try {
  if (args.soak) await soak()
  else await bench()
} finally {
  killAll()
}
