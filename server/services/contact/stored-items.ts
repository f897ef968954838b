import { z } from 'zod'
import { LOCALES } from '#shared/locales.ts'
import type { ContactMessage } from '#shared/contact-schema.ts'
import { DROP_REASONS, SUSPECT_REASONS } from '../spam/index.ts'
import type { OutboxItem } from './outbox.ts'

/**
 * What an item read back from a store must be before a mail is written from it
 * (docs/decisions/stores-hold-data-not-mails.md): a store is not trusted to hold only what
 * this process put there (a second writer, an earlier version, a Redis someone else can
 * reach), so every item is read again as data. The checks are of shape, not the form's rules:
 * a lead accepted under an earlier version's fields is still a lead; fields this version does
 * not know are left out of the mail.
 */

/** A UUID's shape (the summary's id is made from a hash, so not of a UUID version). */
const ID = z.string().regex(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/)
/** An ISO time as `toISOString` writes it. */
const TIME = z.iso.datetime()
/** Longer than any field's limit: a bound on what a mail may carry, not the form's rule. */
const TEXT = z.string().max(20_000)

const StoredSubmission = z.object({
  id: ID,
  receivedAt: TIME,
  message: z.object({ name: TEXT, email: TEXT, locale: z.enum(LOCALES) }).catchall(TEXT),
  suspect: z.array(z.enum(SUSPECT_REASONS)).max(SUSPECT_REASONS.length).optional(),
  released: z.enum(DROP_REASONS).optional(),
})

const StoredSiteMail = z.object({
  id: ID,
  receivedAt: TIME,
  kind: z.string().max(100),
  data: z.unknown(),
})

/**
 * The item as data the mail writers take, or why it is none (then it is not sent): the paths
 * of what did not read, never a value.
 */
export function storedItem(value: unknown): OutboxItem | { unreadable: string } {
  const submission = StoredSubmission.safeParse(value)
  if (submission.success) {
    const { id, receivedAt, message, suspect, released } = submission.data
    return {
      id,
      receivedAt,
      message: message as ContactMessage,
      ...(suspect ? { suspect } : {}),
      ...(released ? { released } : {}),
    }
  }
  const mail = StoredSiteMail.safeParse(value)
  if (mail.success) return { ...mail.data, data: mail.data.data }
  const shape = (value as { message?: unknown } | null)?.message === undefined ? mail : submission
  return { unreadable: `not a ${shape === mail ? 'site mail' : 'lead'}: ${paths(shape.error)}` }
}

/** Where a value did not read, e.g. `message.email, receivedAt`. */
export function paths(error: z.ZodError): string {
  return [...new Set(error.issues.map((issue) => issue.path.join('.') || '(the whole)'))].join(', ')
}
