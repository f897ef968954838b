// `npm run --silent contact:quarantine -- <command>` (docs/contact.md#quarantine): what the spam
// defence dropped, kept undelivered for QUARANTINE_DAYS. In a pod:
// `kubectl exec deploy/<name> -- node server/cli/contact-quarantine.ts <command>`.
//
//   list [--addresses]   every entry, oldest first: id, time, reason, form, language, size;
//                        the sender's address only with --addresses
//   show ID              one entry whole, as the lead e-mail would show it
//   release ID           into the outbox: delivered like any lead, its reason in the subject
//   delete ID            gone at once (a bot's, read and judged)
//
// The store is the site's: the folder in OUTBOX_DIR, or Redis with REDIS_URL. Nothing here
// logs; only `show` and `list --addresses` print personal data, to the operator's terminal.
import { join, resolve } from 'node:path'
import { parseArgs } from 'node:util'
import { CONTACT_FIELDS } from '#shared/contact-fields.ts'
import { loadConfig } from '#server/config.ts'
import { visibleText } from '#server/lib/visible-text.ts'
import {
  failFastRedis,
  FileOutbox,
  FileQuarantine,
  operatorQueue,
  type Quarantine,
  QUARANTINE_FOLDER,
  RedisQuarantine,
  releasedSubmission,
} from '#server/services/contact/index.ts'

const USAGE = `Usage: npm run --silent contact:quarantine -- list [--addresses]
       npm run --silent contact:quarantine -- show ID
       npm run --silent contact:quarantine -- release ID
       npm run --silent contact:quarantine -- delete ID`

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`)
  process.exit(2)
}

const COMMANDS = ['list', 'show', 'release', 'delete'] as const
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
  if (!COMMANDS.includes(name as Command)) fail('Name a command: list, show, release or delete.')
  command = name as Command
  if (command === 'list' ? argument !== undefined : argument === undefined || rest.length > 0) {
    fail(command === 'list' ? '`list` takes no id.' : `\`${command}\` takes one entry id.`)
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

async function release(entryId: string) {
  const found = await entry(entryId)
  const submission = releasedSubmission(found)
  // Into the outbox first, then out of the quarantine: a crash between leaves it in both, and
  // releasing it again adds nothing (the same id).
  if (config.REDIS_URL) {
    const queue = operatorQueue(config.REDIS_URL)
    try {
      await queue.queue.waitUntilReady()
      await queue.put(submission)
    } finally {
      await queue.close()
    }
  } else {
    const outbox = new FileOutbox(resolve(config.OUTBOX_DIR))
    await outbox.init()
    await outbox.put(submission)
  }
  await quarantine.remove(found.id)
  console.log(
    `Released ${found.id} into the ${config.REDIS_URL ? 'Redis queue' : `outbox folder (${resolve(config.OUTBOX_DIR)})`}: ` +
      `it is delivered like any lead, marked in its subject as released (${found.reason}).`,
  )
}

async function remove(entryId: string) {
  const found = await entry(entryId)
  await quarantine.remove(found.id)
  console.log(`Deleted ${found.id} from the quarantine.`)
}

try {
  if (command === 'list') await list()
  else if (command === 'show') await show(id ?? '')
  else if (command === 'release') await release(id ?? '')
  else await remove(id ?? '')
} finally {
  redis?.disconnect()
}
