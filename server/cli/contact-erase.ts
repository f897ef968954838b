// `npm run contact:erase -- --email ADDRESS`: erasure on request (GDPR Art. 17, README,
// Retention and erasure). Removes every contact message from that sender the site still
// stores: the outbox folder (`OUTBOX_DIR`) and, with `REDIS_URL`, the queue in every state,
// then has Redis rewrite its append-only file so they leave its disk at once.
// Prints how many; the address itself is never printed or logged. In a pod:
// `kubectl exec deploy/<name> -- node server/cli/contact-erase.ts --email ADDRESS`.
import { resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { z } from 'zod'
import { loadConfig } from '#server/config.ts'
import { FileOutbox } from '#server/services/outbox.ts'
import { operatorQueue } from '#server/services/redis-outbox.ts'

const USAGE = 'Usage: npm run contact:erase -- --email ADDRESS'

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`)
  process.exit(2)
}

let email: string
try {
  const { values } = parseArgs({ options: { email: { type: 'string' } }, strict: true })
  const parsed = z.email().safeParse(values.email?.trim())
  if (!parsed.success) fail('--email must be the sender’s e-mail address.')
  email = parsed.data
} catch (error) {
  fail((error as Error).message)
}

const config = loadConfig()
const folder = new FileOutbox(resolve(config.OUTBOX_DIR))
const fromFolder = await folder.eraseSender(email).catch((error: unknown) => {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0 // no folder: nothing there
  throw error
})
console.log(`Outbox folder (${folder.dir}): ${fromFolder} message(s) erased.`)

if (config.REDIS_URL) {
  const queue = operatorQueue(config.REDIS_URL)
  try {
    await queue.queue.waitUntilReady()
    const { erased, busy } = await queue.eraseSender(email)
    console.log(`Redis queue: ${erased} message(s) erased.`)
    // Until Redis rewrites its append-only file, the erased messages are still in it.
    if (erased > 0) {
      const outcome = await queue.rewriteAppendOnlyFile()
      console.log(
        outcome === 'rewritten'
          ? 'Redis queue: append-only file rewritten; the erased messages are off its disk.'
          : 'Redis queue: Redis keeps no append-only file; nothing on its disk to rewrite.',
      )
    }
    if (busy > 0) {
      console.log(
        `Redis queue: ${busy} message(s) were being delivered and could not be erased; ` +
          'once delivered they hold no personal data. Delete the e-mail from the inbox.',
      )
    }
  } finally {
    await queue.close()
  }
} else {
  console.log('Redis queue: not configured (REDIS_URL is not set).')
}
