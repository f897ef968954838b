// `npm run contact:erase -- --email ADDRESS`: erasure on request (GDPR Art. 17,
// docs/contact.md#retention-and-erasure). Removes every contact message from that sender the site
// still stores: the outbox folder (`OUTBOX_DIR`), the quarantine of dropped posts and, with
// `REDIS_URL`, the queue in every state and the replicas' quarantine, then has Redis rewrite its
// append-only file so they leave its disk at once. Prints how many; the address itself is never
// printed or logged. In a pod: `kubectl exec deploy/<name> -- node server/cli/contact-erase.ts
// --email ADDRESS`.
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { z } from 'zod'
import { loadConfig } from '#server/config.ts'
import {
  FileOutbox,
  FileQuarantine,
  operatorQueue,
  QUARANTINE_FOLDER,
  RedisQuarantine,
} from '#server/services/contact/index.ts'

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
/** No folder: nothing there. */
const noneWithoutFolder = (error: unknown) => {
  if ((error as NodeJS.ErrnoException).code === 'ENOENT') return 0
  throw error
}
const folder = new FileOutbox(resolve(config.OUTBOX_DIR))
const fromFolder = await folder.eraseSender(email).catch(noneWithoutFolder)
console.log(`Outbox folder (${folder.dir}): ${fromFolder} message(s) erased.`)
// The quarantine's limits play no part in erasing.
const limits = { maxEntries: config.QUARANTINE_MAX_ENTRIES, maxBytes: config.QUARANTINE_MAX_BYTES }
const quarantineFolder = new FileQuarantine(join(folder.dir, QUARANTINE_FOLDER), limits)
const fromQuarantineFolder = await quarantineFolder.eraseSender(email).catch(noneWithoutFolder)
console.log(
  `Quarantine folder (${quarantineFolder.dir}): ${fromQuarantineFolder} dropped post(s) erased.`,
)

if (config.REDIS_URL) {
  const queue = operatorQueue(config.REDIS_URL)
  try {
    await queue.queue.waitUntilReady()
    const { erased, busy } = await queue.eraseSender(email)
    console.log(`Redis queue: ${erased} message(s) erased.`)
    const fromQuarantine = await new RedisQuarantine(queue.connection, limits).eraseSender(email)
    console.log(`Redis quarantine: ${fromQuarantine} dropped post(s) erased.`)
    // Until Redis rewrites its append-only file, the erased messages are still in it.
    if (erased + fromQuarantine > 0) {
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
