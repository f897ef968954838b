import { once } from 'node:events'
import { createServer, request as httpRequest, type IncomingHttpHeaders } from 'node:http'
import type { AddressInfo } from 'node:net'

/**
 * What a page reports of itself, collected in the page: not every driver exposes the console
 * (WebKitWebDriver has no log endpoint), so a script that loads before the site's own records
 * script errors, unhandled rejections, console errors and warnings (React reports a hydration
 * mismatch there), CSP violations and resources that failed to load. A classic script in the
 * head runs before the site's module scripts; it is same-origin, so the site's CSP allows it
 * unchanged, and React 19 hydration skips the extra tag in the head. It also counts the view
 * transitions the page starts. Pages whose scripts are off (a browser with JavaScript off)
 * run no probe either.
 */
const PROBE_PATH = '/__engine-probe.js'

/**
 * A page that shows one of the site's pages in a frame of a given width: WebKitWebDriver's
 * windows are at least 447 px wide, so 320 px in WebKit is a frame. The site forbids framing
 * (`frame-ancestors 'none'`, `X-Frame-Options: DENY`); for a document requested into a frame
 * (`Sec-Fetch-Dest: iframe`) the proxy drops those two, and only those.
 */
export const FRAME_PATH = '/__engine-frame'

function framePage(src: string, width: number): string {
  return `<!DOCTYPE html><html><head><meta charset="utf-8"><link rel="icon" href="data:,"><title>${width} px</title></head>
<body style="margin:0"><iframe src="${src}" style="border:0;width:${width}px;height:800px"></iframe></body></html>`
}
const PROBE_SOURCE = `(() => {
  const problems = []
  const note = (kind, detail) => problems.push(kind + ': ' + String(detail).slice(0, 400))
  addEventListener('error', (event) => {
    const target = event.target
    if (target && target !== window && (target.src || target.href)) {
      note('failed resource', target.src || target.href)
    } else note('script error', event.message || event.error)
  }, true)
  addEventListener('unhandledrejection', (event) => {
    note('unhandled rejection', (event.reason && event.reason.message) || event.reason)
  })
  document.addEventListener('securitypolicyviolation', (event) => {
    note('CSP violation', event.violatedDirective + ' ' + event.blockedURI)
  })
  for (const level of ['error', 'warn']) {
    const original = console[level]
    console[level] = (...args) => {
      note('console.' + level, args.map((arg) => (arg && arg.stack) || String(arg)).join(' '))
      original.apply(console, args)
    }
  }
  // View transitions the page starts (React Router's, on a client-side navigation), and how
  // many still run: while one runs, its snapshot covers the page and takes the clicks.
  let viewTransitions = 0
  let running = 0
  const start = Document.prototype.startViewTransition
  if (start) {
    Document.prototype.startViewTransition = function (...args) {
      viewTransitions++
      running++
      const transition = start.apply(this, args)
      transition.finished.finally(() => running--)
      return transition
    }
  }
  window.__engineProbe = {
    problems,
    viewTransitions: () => viewTransitions,
    viewTransitionsRunning: () => running,
  }
})()
`

/** In the page: whether no view transition runs (one takes the clicks while it does). */
export function noViewTransitionRunning(): boolean {
  const probe = (window as unknown as { __engineProbe?: { viewTransitionsRunning(): number } })
    .__engineProbe
  return !probe || probe.viewTransitionsRunning() === 0
}

/** In the page: how many view transitions the document has started (-1 without the probe). */
export function viewTransitionsStarted(): number {
  const probe = (window as unknown as { __engineProbe?: { viewTransitions(): number } })
    .__engineProbe
  return probe ? probe.viewTransitions() : -1
}

/** In the page: the probe's findings since the last call (a new document starts with none). */
export function takeProblems(): string[] {
  const probe = (window as unknown as { __engineProbe?: { problems: string[] } }).__engineProbe
  return probe ? probe.problems.splice(0) : ['no probe in this document']
}

export type ProbeProxy = {
  origin: string
  /** Requests answered with 400 or more, or not answered, since the last `takeFailures`. */
  takeFailures(): string[]
  /** Resolves once no request has been open for `quietMs` (the page has loaded what it loads). */
  settled(quietMs?: number): Promise<void>
  close(): Promise<void>
}

/**
 * A proxy in front of the site for the engine tests: it passes every request through
 * unchanged, adds the probe to each HTML document, and notes every answer of 400 or more
 * (the "zero failed requests" of every page, whatever the driver exposes). Bodies pass
 * uncompressed (`Accept-Encoding: identity`), so documents can be edited.
 */
export async function startProbeProxy(upstream: string): Promise<ProbeProxy> {
  const target = new URL(upstream)
  const failures: string[] = []
  let open = 0
  let lastChange = Date.now()
  const server = createServer((incoming, outgoing) => {
    open++
    lastChange = Date.now()
    outgoing.on('close', () => {
      open--
      lastChange = Date.now()
    })
    if (incoming.url === PROBE_PATH) {
      outgoing.writeHead(200, { 'content-type': 'text/javascript', 'cache-control': 'no-store' })
      outgoing.end(PROBE_SOURCE)
      return
    }
    const url = new URL(incoming.url ?? '/', 'http://proxy')
    if (url.pathname === FRAME_PATH) {
      const src = url.searchParams.get('src') ?? ''
      const width = Number(url.searchParams.get('width'))
      if (!/^\/(?!\/)[\w\-/]*$/.test(src) || !Number.isInteger(width)) {
        outgoing.writeHead(400).end()
        return
      }
      outgoing.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
      outgoing.end(framePage(src, width))
      return
    }
    const framed = incoming.headers['sec-fetch-dest'] === 'iframe'
    const headers: IncomingHttpHeaders = { ...incoming.headers, 'accept-encoding': 'identity' }
    const forward = httpRequest(
      {
        host: target.hostname,
        port: target.port,
        method: incoming.method,
        path: incoming.url,
        headers,
      },
      (answer) => {
        const status = answer.statusCode ?? 502
        if (status >= 400) failures.push(`${incoming.method} ${incoming.url}: ${status}`)
        const isDocument = /^text\/html\b/.test(answer.headers['content-type'] ?? '')
        if (framed) {
          delete answer.headers['x-frame-options']
          const policy = answer.headers['content-security-policy']
          if (typeof policy === 'string') {
            answer.headers['content-security-policy'] = policy.replace(
              /frame-ancestors [^;]*;?/,
              '',
            )
          }
        }
        if (!isDocument) {
          outgoing.writeHead(status, answer.headers)
          answer.pipe(outgoing)
          return
        }
        const chunks: Buffer[] = []
        answer.on('data', (chunk: Buffer) => chunks.push(chunk))
        answer.on('end', () => {
          const html = Buffer.concat(chunks)
            .toString('utf8')
            .replace('<head>', `<head><script src="${PROBE_PATH}"></script>`)
          const body = Buffer.from(html)
          const headers = { ...answer.headers, 'content-length': String(body.length) }
          delete headers['transfer-encoding']
          outgoing.writeHead(status, headers)
          outgoing.end(body)
        })
      },
    )
    forward.on('error', (error) => {
      failures.push(`${incoming.method} ${incoming.url}: ${error.message}`)
      outgoing.destroy()
    })
    incoming.pipe(forward)
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  return {
    origin: `http://127.0.0.1:${port}`,
    takeFailures: () => failures.splice(0),
    async settled(quietMs = 200) {
      const started = Date.now()
      while (open > 0 || Date.now() - lastChange < quietMs) {
        if (Date.now() - started > 30_000) throw new Error(`${open} requests still open after 30 s`)
        await new Promise((resolve) => setTimeout(resolve, 50))
      }
    },
    async close() {
      server.closeAllConnections()
      server.close()
      await once(server, 'close')
    },
  }
}
