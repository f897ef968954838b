import { buildApp } from './app.ts'
import { ConfigError, loadConfig, type Config } from './config.ts'

/** The process: configuration, listening, graceful shutdown. */
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
    const timer = setTimeout(() => {
      app.log.error('graceful shutdown timed out; exiting')
      process.exit(1)
    }, config.SHUTDOWN_GRACE_MS)
    timer.unref()
    await app.close()
    app.log.info('closed')
    process.exit(0)
  }
  process.on('SIGTERM', () => void shutdown('SIGTERM'))
  process.on('SIGINT', () => void shutdown('SIGINT'))

  await app.listen({ port: config.PORT, host: config.HOST })
}

await main()
