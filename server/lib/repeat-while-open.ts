import type { FastifyInstance } from 'fastify'

/**
 * Runs `check` `firstMs` after start and then every `everyMs` until the app closes, without
 * keeping the process alive for it: the site's own mails (the weekly insight summary, the daily
 * quarantine digest) look this way whether theirs is due, each run deciding for itself.
 */
export function repeatWhileOpen(
  app: FastifyInstance,
  check: () => Promise<unknown>,
  { firstMs, everyMs }: { firstMs: number; everyMs: number },
) {
  const first = setTimeout(() => void check(), firstMs)
  const timer = setInterval(() => void check(), everyMs)
  first.unref()
  timer.unref()
  app.addHook('onClose', async () => {
    clearTimeout(first)
    clearInterval(timer)
  })
}
