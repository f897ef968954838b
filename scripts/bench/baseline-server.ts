// The Node ceilings of `npm run bench`: a bare Fastify route (or, with `--http`, node's own
// `http` server) that replies precomputed buffers of the same pages with the same response
// headers, with no hooks and no logging. Our server is measured against these.
// Usage: node scripts/bench/baseline-server.ts <port> <pages.json> [--http]
// where pages.json maps a path to { file, status, type, headers } saved by the bench.
import { createServer } from 'node:http'
import { readFileSync } from 'node:fs'
import Fastify from 'fastify'

import { savedKey, type SavedPage } from '../lib/saved-answers.ts'

const [portArgument, pagesFile] = process.argv.slice(2)
if (!portArgument || !pagesFile) {
  console.error('usage: baseline-server.ts <port> <pages.json>')
  process.exit(2)
}
const saved = JSON.parse(readFileSync(pagesFile, 'utf8')) as Record<string, SavedPage>
const pages = new Map(
  Object.entries(saved).map(([path, page]) => [
    path,
    {
      body: readFileSync(page.file),
      status: page.status,
      headers: { ...page.headers, 'content-type': page.type },
    },
  ]),
)
/** The saved answer for a URL, its Brotli form when the request accepts one. */
function pageFor(url: string, acceptEncoding: string | undefined) {
  const brotli = /\bbr\b/.test(acceptEncoding ?? '') ? pages.get(savedKey(url, true)) : undefined
  return brotli ?? pages.get(url) ?? notFound
}

const notFound = pages.get('/404') ?? {
  body: Buffer.from('Not found'),
  status: 404,
  headers: { 'content-type': 'text/plain' },
}

if (process.argv.includes('--http')) {
  createServer((request, response) => {
    const page = pageFor(request.url ?? '/', request.headers['accept-encoding'])
    response.writeHead(page.status, page.headers).end(page.body)
  }).listen(Number(portArgument), '127.0.0.1', () => console.log('listening'))
} else {
  await startFastify()
}

async function startFastify() {
  const app = Fastify({ logger: false })
  app.get('/*', (request, reply) => {
    const page = pageFor(request.url, request.headers['accept-encoding'])
    return reply.code(page.status).headers(page.headers).send(page.body)
  })
  await app.listen({ port: Number(portArgument), host: '127.0.0.1' })
  console.log('listening')
}
