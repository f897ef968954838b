import escapeHtml from 'escape-html'
import { z } from 'zod'
import { COMPANY } from '#shared/company.ts'
import { CONTACT_FIELDS, CONTACT_FORM_IDS } from '#shared/contact-fields.ts'
import { LOCALES } from '#shared/locales.ts'
import { visibleText } from '../../lib/visible-text.ts'
import { DROP_REASONS, REJECTIONS, type DropReason } from '../spam/index.ts'
import { htmlDocument } from './mail.ts'
import { siteMailId } from './outbox.ts'
import type { QuarantineEntry } from './quarantine.ts'

/**
 * The quarantine digest (docs/contact.md#quarantine): once a day, at a time in Europe/Berlin,
 * one mail to `MAIL_TO` with every message held back since the last one, in full, so a person
 * whose post a layer misjudged is seen by a person, not deleted unread. People-possible
 * reasons first; each with the command that releases it. Its data is queued like the weekly
 * summary's and the worker writes the mail from it.
 */

/** The `kind` of the site mail that carries a day's digest (`SiteMail`). */
export const QUARANTINE_DIGEST_KIND = 'quarantine-digest'

/** The time zone the digest's hour is read in: the company's (the policy names it, too). */
const DIGEST_TIME_ZONE = COMPANY.businessHours.timeZone

/**
 * At most this much message text in one digest (about 360 messages at the form's limits): a
 * flood of bots' posts must not make a mail the relay refuses. People-possible entries come
 * first, so they are the last to be left out; what is left out is counted and named.
 */
const MAX_DIGEST_TEXT = 2_000_000

const DAY_MS = 86_400_000

/** `HH:MM` on a 24-hour clock. */
export type DigestTime = { hour: number; minute: number }

/** `QUARANTINE_DIGEST_AT` read: the time of day, or null for `off`. */
export function digestTime(setting: string): DigestTime | null {
  if (setting === 'off') return null
  const [hour, minute] = setting.split(':').map(Number)
  return { hour: hour ?? 0, minute: minute ?? 0 }
}

const partsFormat = new Intl.DateTimeFormat('en-GB', {
  timeZone: DIGEST_TIME_ZONE,
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
})

/** The wall-clock reading in Berlin of an instant, as if it were UTC (epoch ms). */
function berlinWallClock(instant: number): number {
  const parts = Object.fromEntries(
    partsFormat.formatToParts(new Date(instant)).map((part) => [part.type, part.value]),
  )
  return Date.UTC(
    Number(parts.year),
    Number(parts.month) - 1,
    Number(parts.day),
    Number(parts.hour),
    Number(parts.minute),
    Number(parts.second),
  )
}

/**
 * The instant that Berlin's clocks read `wall` (a wall-clock time written as UTC epoch ms). A
 * time a spring change skips is taken an hour later; an autumn one's first reading counts.
 */
function berlinInstant(wall: number): number {
  let instant = wall - 3_600_000 // Berlin is UTC+1 or UTC+2: start from the earlier guess
  for (let step = 0; step < 3; step++) {
    const offset = berlinWallClock(instant) - instant
    const next = wall - offset
    if (next === instant) break
    instant = next
  }
  return instant
}

/**
 * The digest due at `now`: the last time `at` Berlin's clocks read before or at `now`
 * (`until`), the one a day before it (`from`), the day it is named after, and its outbox id
 * (the same on every replica and after every restart, a site mail's: `siteMailId`).
 */
export function dueDigest(
  now: Date,
  at: DigestTime,
): { day: string; from: Date; until: Date; id: string } {
  const wall = berlinWallClock(now.getTime())
  const today = Math.floor(wall / DAY_MS) * DAY_MS
  let due = today + (at.hour * 60 + at.minute) * 60_000
  if (berlinInstant(due) > now.getTime()) due -= DAY_MS
  const day = new Date(due).toISOString().slice(0, 10)
  return {
    day,
    from: new Date(berlinInstant(due - DAY_MS)),
    until: new Date(berlinInstant(due)),
    id: siteMailId(`${QUARANTINE_DIGEST_KIND}:${day}`),
  }
}

const Text = z.string().max(20_000)

/** An entry as the digest carries it (read again before the mail is written). */
const DigestEntrySchema = z.object({
  id: z.uuid(),
  receivedAt: z.iso.datetime(),
  reason: z.enum(DROP_REASONS),
  form: z.enum(CONTACT_FORM_IDS),
  message: z.object({ name: Text, email: Text, locale: z.enum(LOCALES) }).catchall(Text),
})

/** A day's digest as the outbox holds it. */
const DigestDataSchema = z.object({
  day: z.iso.date(),
  from: z.iso.datetime(),
  until: z.iso.datetime(),
  entries: z.array(DigestEntrySchema).max(100_000),
  /** Held back in the period but left out for the mail's size, by reason. */
  leftOut: z.partialRecord(z.enum(DROP_REASONS), z.number().int().min(1)),
})

export type DigestData = z.input<typeof DigestDataSchema>

const mayBePerson = (reason: DropReason) => REJECTIONS[reason].mayBePerson

/** What an entry's text weighs in the mail. */
const weight = (entry: QuarantineEntry) =>
  Object.values(entry.message).reduce((sum, value) => sum + value.length, 0)

/**
 * The digest's data from the entries held back in `[from, until)`: people-possible reasons
 * first, then by time; within `MAX_DIGEST_TEXT`, the rest counted by reason.
 */
export function digestData(
  due: { day: string; from: Date; until: Date },
  held: readonly QuarantineEntry[],
): DigestData {
  const inPeriod = held
    .filter((entry) => {
      const at = Date.parse(entry.receivedAt)
      return at >= due.from.getTime() && at < due.until.getTime()
    })
    .sort(
      (a, b) =>
        Number(mayBePerson(b.reason)) - Number(mayBePerson(a.reason)) ||
        a.receivedAt.localeCompare(b.receivedAt),
    )
  const entries: QuarantineEntry[] = []
  const leftOut: Partial<Record<DropReason, number>> = {}
  let size = 0
  for (const entry of inPeriod) {
    size += weight(entry)
    if (size <= MAX_DIGEST_TEXT) entries.push(entry)
    else leftOut[entry.reason] = (leftOut[entry.reason] ?? 0) + 1
  }
  return {
    day: due.day,
    from: due.from.toISOString(),
    until: due.until.toISOString(),
    entries,
    leftOut,
  }
}

/** Why a post was held back, as the company reads it; `mayBePerson` reasons say so. */
const REASON_TEXTS: Record<DropReason, string> = {
  tooFast: 'sent sooner after the form was opened than a person usually types',
  tokenForged: 'its form token was changed, or was for another form or language',
  noBrowser: 'the browser did not confirm that the post came from this site',
  proofInvalid: "the browser's computing task was solved wrongly, or for another form",
  honeypot: 'the hidden field, which people never see, was filled in',
  tokenMissing: 'it came without a form token',
  proofMissing: "it came without the browser's computing task",
  replay: 'its form token or computing task had already sent another message',
  pageBudget:
    "more messages than allowed came with one page's token or from one address without JavaScript",
}

const timeFormat = new Intl.DateTimeFormat('en-GB', {
  dateStyle: 'medium',
  timeStyle: 'short',
  timeZone: DIGEST_TIME_ZONE,
})

/**
 * The commands that release and delete an entry, as the operator runs them, each after a
 * prompt: an id between words reads to spam filters as a tracking hash (SpamAssassin's
 * HEXHASH_WORD, which the deliverability test saw at 0.999 of its 1.0 limit).
 */
const commands = (id: string) => [
  `$ node server/cli/contact-quarantine.ts release ${id}`,
  `$ node server/cli/contact-quarantine.ts delete ${id}`,
]

/** Where the commands run: in the site's folder, or its container. */
const COMMANDS_WHERE =
  'To release or delete it, where the site runs (in Kubernetes: kubectl exec deploy/<fullname> -- <command>):'

/** A field's name as the mail labels it: `email` → `Email`. */
const label = (name: string) => `${name.charAt(0).toUpperCase()}${name.slice(1)}`

/**
 * The digest's mail from its data (English, for the team, like the weekly summary): subject,
 * text, and the same as an HTML document. Everything the sender typed is shown with control
 * and bidirectional characters written out (`visibleText`). Throws when the data does not read
 * as a digest's.
 */
export function digestMailOf(value: unknown): { subject: string; text: string; html: string } {
  const data = DigestDataSchema.parse(value)
  const people = data.entries.filter((entry) => mayBePerson(entry.reason)).length
  const leftOut = Object.values(data.leftOut).reduce((sum, count) => sum + count, 0)
  const total = data.entries.length + leftOut
  const subject =
    `[Website] ${total} held-back ${total === 1 ? 'message' : 'messages'} to review` +
    (people > 0 ? ` (${people} may be from ${people === 1 ? 'a person' : 'people'})` : '')
  const period = `${timeFormat.format(new Date(data.from))} to ${timeFormat.format(new Date(data.until))} (${DIGEST_TIME_ZONE})`
  const intro = [
    `The website's spam protection held back ${total} ${total === 1 ? 'message' : 'messages'} from ${period}.`,
    'Their senders were told their message was sent. Those a person may have sent come first:',
    'read them, and release a real one with the command below it, so it is delivered as a lead.',
    'Held-back messages are deleted when the quarantine period ends.',
  ]
  const sections = data.entries.map((entry, index) => {
    const rows: [string, string][] = [
      ['Held back because', REASON_TEXTS[entry.reason]],
      ['Could be a person', mayBePerson(entry.reason) ? 'yes' : 'unlikely'],
      ['Form', entry.form],
      ['Language', entry.message.locale],
      ['Received', timeFormat.format(new Date(entry.receivedAt))],
    ]
    const fields = CONTACT_FIELDS.flatMap((field): [string, string, boolean][] => {
      const text = entry.message[field.name]
      return text === undefined ? [] : [[label(field.name), text, field.mail === 'body']]
    })
    return { index, entry, rows, fields }
  })
  const textSections = sections.map(({ index, entry, rows, fields }) =>
    [
      `${index + 1}. ${entry.id}`,
      ...rows.map(([label, text]) => `${label}: ${text}`),
      ...fields.map(([name, text, isBody]) =>
        isBody
          ? `${name}:\n${visibleText(text, { isMultiLine: true })}`
          : `${name}: ${visibleText(text)}`,
      ),
      COMMANDS_WHERE,
      ...commands(entry.id).map((command) => `  ${command}`),
    ].join('\n'),
  )
  const leftOutLine =
    leftOut > 0
      ? `Left out of this mail for its size: ${Object.entries(data.leftOut)
          .map(([reason, count]) => `${count} ${reason}`)
          .join(', ')}; \`node server/cli/contact-quarantine.ts list\` lists them.`
      : ''
  const footer =
    'Sent once a day when anything was held back, at QUARANTINE_DIGEST_AT; set it to "off" to stop.'
  const text = [
    intro.join(' '),
    '',
    ...textSections.flatMap((section) => [section, '']),
    leftOutLine,
    footer,
  ]
    .filter((line, index, lines) => line !== '' || lines[index - 1] !== '')
    .join('\n')
  const html = htmlDocument({
    lang: 'en',
    title: subject,
    body: [
      `<p>${escapeHtml(intro.join(' '))}</p>`,
      ...sections.map(({ index, entry, rows, fields }) =>
        [
          `<h2>${index + 1}. ${escapeHtml(entry.id)}</h2>`,
          '<table cellpadding="4" cellspacing="0">',
          ...[
            ...rows,
            ...fields
              .filter(([, , isBody]) => !isBody)
              .map(([name, text]): [string, string] => [name, visibleText(text)]),
          ].map(
            ([label, text]) =>
              `<tr><th align="left" valign="top">${escapeHtml(label)}</th><td>${escapeHtml(text)}</td></tr>`,
          ),
          '</table>',
          ...fields
            .filter(([, , isBody]) => isBody)
            .map(
              ([name, text]) =>
                `<h3>${escapeHtml(name)}</h3>\n<p>${escapeHtml(visibleText(text, { isMultiLine: true })).replace(/\n/g, '<br>\n')}</p>`,
            ),
          `<p>${escapeHtml(COMMANDS_WHERE)}</p>`,
          `<pre>${escapeHtml(commands(entry.id).join('\n'))}</pre>`,
        ].join('\n'),
      ),
      ...(leftOutLine ? [`<p>${escapeHtml(leftOutLine)}</p>`] : []),
      `<p>${escapeHtml(footer)}</p>`,
    ].join('\n'),
  })
  return { subject, text, html }
}
