// `npm run --silent contact:quarantine -- <command>` (docs/contact.md#quarantine): what the spam
// defence dropped, kept undelivered for QUARANTINE_DAYS. In a pod:
// `kubectl exec deploy/<name> -- node server/cli/contact-quarantine.ts <command>`.
//
//   list [--addresses]   every entry, oldest first: id, time, reason, form, language, size;
//                        the sender's address only with --addresses
//   show ID              one entry whole, as the lead e-mail would show it
//   release ID           into the outbox: delivered like any lead, its reason in the subject
//   delete ID            gone at once (a bot's, read and judged)
//   digest               the daily digest's mail now, to MAIL_TO: every message held back in
//                        the last 24 hours, in full, with the commands above for each
//
// The store is the site's: the folder in OUTBOX_DIR, or Redis with REDIS_URL. Nothing here
// logs; only `show` and `list --addresses` print personal data, to the operator's terminal.
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { CONTACT_FIELDS } from '#shared/contact-fields.ts'
import { loadConfig } from '#server/config.ts'
import { visibleText } from '#server/lib/visible-text.ts'
import {
  digestData,
  failFastRedis,
  FileOutbox,
  FileQuarantine,
  operatorQueue,
  type OutboxItem,
  type Quarantine,
  QUARANTINE_DIGEST_KIND,
  QUARANTINE_FOLDER,
  RedisQuarantine,
  releasedSubmission,
  siteMailId,
} from '#server/services/contact/index.ts'

const USAGE = `Usage: npm run --silent contact:quarantine -- list [--addresses]
       npm run --silent contact:quarantine -- show ID
       npm run --silent contact:quarantine -- release ID
       npm run --silent contact:quarantine -- delete ID
       npm run --silent contact:quarantine -- digest`

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`)
  process.exit(2)
}

const COMMANDS = ['list', 'show', 'release', 'delete', 'digest'] as const
/** The commands that take no entry id. */
const WITHOUT_ID: readonly Command[] = ['list', 'digest']
type Command = (typeof COMMANDS)[number]

let command: Command
let id: string | undefined
let withAddresses = false
try {
  const { values, positionals } = parseArgs({
    options: { addresses: { type: 'boolean', default: false } },
    allowPositionals: true,
    strict: true,
  })
  const [name, argument, ...rest] = positionals
  if (!COMMANDS.includes(name as Command)) {
    fail('Name a command: list, show, release, delete or digest.')
  }
  command = name as Command
  const takesId = !WITHOUT_ID.includes(command)
  if (takesId ? argument === undefined || rest.length > 0 : argument !== undefined) {
    fail(takesId ? `\`${command}\` takes one entry id.` : `\`${command}\` takes no id.`)
  }
  if (values.addresses && command !== 'list') fail('--addresses is for `list`.')
  id = argument
  withAddresses = values.addresses
} catch (error) {
  fail((error as Error).message)
}

const config = loadConfig()
const limits = { maxEntries: config.QUARANTINE_MAX_ENTRIES, maxBytes: config.QUARANTINE_MAX_BYTES }
// An operator's command may wait for the connection (the site's requests never do).
const redis = config.REDIS_URL
  ? failFastRedis(config.REDIS_URL, { enableOfflineQueue: true, commandTimeout: 10_000 })
  : null
redis?.on('error', () => {})
const quarantine: Quarantine = redis
  ? new RedisQuarantine(redis, limits)
  : new FileQuarantine(join(resolve(config.OUTBOX_DIR), QUARANTINE_FOLDER), limits)

/** `2026-11-27T16:17:43.512Z` → `2026-11-27 16:17 UTC`. */
const minute = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`

async function list() {
  const entries = await quarantine.list().catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [] // no folder: nothing kept
    throw error
  })
  if (entries.length === 0) {
    console.log(
      `The quarantine is empty${config.QUARANTINE_DAYS === 0 ? ' (QUARANTINE_DAYS=0: nothing is kept)' : ''}.`,
    )
    return
  }
  const rows = entries.map((entry) => [
    entry.id,
    minute(entry.receivedAt),
    entry.reason,
    entry.form,
    entry.locale,
    `${entry.bytes} B`,
    ...(withAddresses ? [entry.entry.message.email] : []),
  ])
  const head = [
    'id',
    'received',
    'reason',
    'form',
    'language',
    'size',
    ...(withAddresses ? ['from'] : []),
  ]
  const widths = head.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] ?? '').length)),
  )
  for (const row of [head, ...rows]) {
    console.log(
      row
        .map((cell, column) => cell.padEnd(widths[column] ?? 0))
        .join('  ')
        .trimEnd(),
    )
  }
  const bytes = entries.reduce((sum, entry) => sum + entry.bytes, 0)
  console.log(
    `\n${entries.length} entries, ${bytes} bytes; kept ${config.QUARANTINE_DAYS} days after receipt.`,
  )
}

async function entry(entryId: string) {
  const found = await quarantine.get(entryId)
  if (!found) {
    console.error(`No entry ${entryId} in the quarantine (released, deleted or expired).`)
    process.exit(1)
  }
  return found
}

/**
 * One entry whole. What the sender typed is printed with its control, bidirectional and
 * invisible characters written out (`⟨U+202E⟩`): a terminal would act on them, and the operator
 * must read what a release would mail.
 */
async function show(entryId: string) {
  const found = await entry(entryId)
  console.log(`id:        ${found.id}`)
  console.log(`received:  ${found.receivedAt}`)
  console.log(`reason:    ${found.reason}`)
  console.log(`form:      ${found.form}`)
  console.log(`language:  ${visibleText(found.message.locale)}`)
  for (const field of CONTACT_FIELDS) {
    const value = found.message[field.name]
    if (value === undefined) continue
    if (field.mail === 'body')
      console.log(`${field.name}:\n${visibleText(value, { isMultiLine: true })}`)
    else console.log(`${`${field.name}:`.padEnd(11)}${visibleText(value)}`)
  }
}

/** Into the site's outbox: the Redis queue with `REDIS_URL`, else the folder. */
async function queueItem(item: OutboxItem) {
  if (config.REDIS_URL) {
    const queue = operatorQueue(config.REDIS_URL)
    try {
      await queue.queue.waitUntilReady()
      await queue.put(item)
    } finally {
      await queue.close()
    }
  } else {
    const outbox = new FileOutbox(resolve(config.OUTBOX_DIR))
    await outbox.init()
    await outbox.put(item)
  }
}

const outboxName = () =>
  config.REDIS_URL ? 'Redis queue' : `outbox folder (${resolve(config.OUTBOX_DIR)})`

async function release(entryId: string) {
  const found = await entry(entryId)
  // Into the outbox first, then out of the quarantine: a crash between leaves it in both, and
  // releasing it again adds nothing (the same id).
  await queueItem(releasedSubmission(found))
  await quarantine.remove(found.id)
  console.log(
    `Released ${found.id} into the ${outboxName()}: ` +
      `it is delivered like any lead, marked in its subject as released (${found.reason}).`,
  )
}

async function remove(entryId: string) {
  const found = await entry(entryId)
  await quarantine.remove(found.id)
  console.log(`Deleted ${found.id} from the quarantine.`)
}

/**
 * The daily digest's mail now (the same mail the site sends at QUARANTINE_DIGEST_AT), of the
 * last 24 hours, into the outbox: the site's workers send it to MAIL_TO like a lead.
 */
async function digest() {
  const now = new Date()
  const held = await quarantine.list().catch((error: unknown) => {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return []
    throw error
  })
  const data = digestData(
    { day: now.toISOString().slice(0, 10), from: new Date(now.getTime() - 86_400_000), until: now },
    held.map(({ entry: kept }) => kept),
  )
  const left = Object.values(data.leftOut).reduce((sum, count) => sum + count, 0)
  if (data.entries.length + left === 0) {
    console.log('Nothing was held back in the last 24 hours: no digest to send.')
    return
  }
  await queueItem({
    id: siteMailId(`quarantine-digest:now:${now.toISOString()}`),
    receivedAt: now.toISOString(),
    kind: QUARANTINE_DIGEST_KIND,
    data,
  })
  console.log(
    `Queued the digest of ${data.entries.length + left} held-back messages (the last 24 hours) into the ${outboxName()}: it is sent to MAIL_TO like a lead.`,
  )
}

try {
  if (command === 'list') await list()
  else if (command === 'digest') await digest()
  else if (command === 'show') await show(id ?? '')
  else if (command === 'release') await release(id ?? '')
  else await remove(id ?? '')
} finally {
  redis?.disconnect()
}
