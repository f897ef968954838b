import { buildApp } from './app.ts'
import { ConfigError, loadConfig, type Config } from './config.ts'
import { SMTP_TIMEOUTS } from './services/contact/index.ts'
import { factsStillSamples } from '#shared/sample-facts.ts'

/**
 * The process: configuration, listening, graceful shutdown. Node runs this file and the server
 * as they are, their types stripped; only the React part is bundled
 * (docs/decisions/the-server-runs-its-typescript-directly.md). No tsx, for the scripts either:
 * `erasableSyntaxOnly` makes the type check refuse what stripping cannot run
 * (docs/decisions/no-tsx.md).
 */
async function main() {
  let config: Config
  try {
    config = loadConfig()
  } catch (error) {
    if (error instanceof ConfigError) {
      // Before the logger exists: a plain message naming the variable, then a failing exit.
      console.error(error.message)
      process.exit(1)
    }
    throw error
  }

  const app = await buildApp(config)
  let isClosing = false

  async function shutdown(signal: string) {
    if (isClosing) {
      // A second signal: the operator wants out now.
      app.log.warn({ signal }, 'second signal, exiting at once')
      process.exit(1)
    }
    isClosing = true
    app.isShuttingDown = true
    app.log.info({ signal }, 'shutting down')
    const exitNow = () => {
      app.log.error('graceful shutdown timed out; exiting')
      process.exit(1)
    }
    // Requests get SHUTDOWN_GRACE_MS. A mail handed to the relay gets its answer, however long
    // SMTP's own timeout lets it take: cut off, it may be in the relay's hands already, and its
    // retry on another pod would be a second copy. The process exits once it has the answer.
    const timer = setTimeout(() => {
      const deliveries = app.contact.deliveriesInProgress()
      if (deliveries === 0) return exitNow()
      app.log.warn(
        { deliveries, waitMs: SMTP_TIMEOUTS.socketMs },
        'shutdown grace period over: waiting for the delivery in progress',
      )
      setTimeout(exitNow, SMTP_TIMEOUTS.socketMs).unref()
    }, config.SHUTDOWN_GRACE_MS)
    timer.unref()
    await app.close()
    app.log.info('closed')
    process.exit(0)
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))

  await app.ready()
  // The metrics port before the site's: a process that cannot serve its metrics takes no
  // traffic, rather than serving it unseen by the alerts (docs/decisions/metrics-on-a-port.md).
  if (app.metricsListener) {
    try {
      await app.metricsListener.listen()
    } catch (error) {
      if (!isSystemError(error)) throw error
      console.error(metricsPortProblem(error, config))
      process.exit(1)
    }
  }
  await app.listen({ port: config.PORT, host: config.HOST })
  // At every start, so no one runs a public site on the repository's sample company unwarned.
  const samples = factsStillSamples()
  if (config.NODE_ENV === 'production' && samples.length > 0) {
    app.log.warn(
      { samples },
      `SAMPLE COMPANY FACTS: the legal notice, the privacy policy and the contact page show ` +
        `${samples.length} facts that are still the repository's samples; replace them before ` +
        `this site goes public (docs/go-live.md#company-facts-still-samples, npm run go-live)`,
    )
  }
}

function isSystemError(error: unknown): error is NodeJS.ErrnoException & { code: string } {
  return error instanceof Error && typeof (error as NodeJS.ErrnoException).code === 'string'
}

/** Why `/metrics` cannot have its port, and what to do: a message, not a stack trace. */
function metricsPortProblem(error: NodeJS.ErrnoException & { code: string }, config: Config) {
  const where = `${config.HOST}:${config.METRICS_PORT}`
  const cause =
    error.code === 'EADDRINUSE'
      ? `${where} is in use (another instance of the site on this machine?)`
      : `cannot listen on ${where} (${error.code}: ${error.message})`
  return (
    `METRICS_PORT=${config.METRICS_PORT}: ${cause}.\n` +
    `/metrics has a port of its own: give each instance on this machine a free METRICS_PORT, ` +
    `or set METRICS_PORT=${config.PORT} (its PORT) to serve /metrics on the site's port.`
  )
}

await main()
