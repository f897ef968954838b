import type { ContactMessage } from '#shared/contact-schema.ts'
import { decodeEncodedWords, hasEncodedWord } from '../../lib/encoded-words.ts'

/**
 * Why a post was dropped, refused or answered with a new token, as
 * `contact_rejected_total{reason}` counts it (docs/contact.md#spam-defence), and what the post got:
 * - `dropped`: answered exactly like a success, so a bot learns nothing; never delivered, but
 *   kept in the quarantine for `QUARANTINE_DAYS` if it is a message at all
 * (docs/contact.md#quarantine), where an operator can release a person's message a layer misjudged;
 * - `refused`: answered plainly and the form shown again with the visitor's text;
 * - `renewed`: a person's form that outlived its token or its key: answered with a new token,
 *   the text kept, and the form's script sends it again by itself.
 *
 * `mayBePerson`: a drop a person's own browser can cause (autofill and a quick click, a proxy
 * that rewrites pages or strips headers, keys changed under an open form). A quarantine filling
 * with these rather than with bots' reasons is what the `WebsiteContactQuarantineUnlikeSpam`
 * alert looks for (helm/README.md).
 *
 * - `foreign`: posted from another site;
 * - `honeypot`: the hidden field was filled in;
 * - `tokenMissing`, `tokenForged`: no form token, or one changed after this site signed it,
 *   or signed for another form or language;
 * - `tooFast`: sent sooner after the token was issued than a person can fill in a form;
 * - `noBrowser`: a kept page's token (the form without JavaScript) posted without the
 *   browser's word that it comes from this site (`Sec-Fetch-Site`, else `Origin`);
 * - `proofMissing`, `proofInvalid`: a script's token without the proof of work's solution, or
 *   with one that is wrong, changed, expired or not for a challenge of this site's; and a page's
 *   token posted by a script (JSON): only the form without JavaScript may rely on it alone;
 * - `pageBudget`: a post that relies on a page's token alone, over that token's or that
 *   address's budget (page-budget.ts): a person may share a kept page's token with others;
 * - `replay`: a token or a solution used again for another message, or the same plain post
 *   sent twice;
 * - `tokenExpired`: a form left open longer than `CONTACT_TOKEN_MAX_AGE`;
 * - `keyUnknown`: a token or challenge signed by a key this site no longer has (rotated out
 *   longer ago than a token lives, or lost with its data), docs/decisions/form-token-keys.md.
 */
export const REJECTIONS = {
  foreign: { answer: 'refused' },
  honeypot: { answer: 'dropped', mayBePerson: false },
  tokenMissing: { answer: 'dropped', mayBePerson: false },
  tokenForged: { answer: 'dropped', mayBePerson: true },
  tooFast: { answer: 'dropped', mayBePerson: true },
  noBrowser: { answer: 'dropped', mayBePerson: true },
  proofMissing: { answer: 'dropped', mayBePerson: false },
  proofInvalid: { answer: 'dropped', mayBePerson: true },
  replay: { answer: 'dropped', mayBePerson: false },
  pageBudget: { answer: 'dropped', mayBePerson: true },
  tokenExpired: { answer: 'renewed' },
  keyUnknown: { answer: 'renewed' },
} as const satisfies Record<
  string,
  { answer: 'refused' | 'renewed' } | { answer: 'dropped'; mayBePerson: boolean }
>

export type RejectionReason = keyof typeof REJECTIONS
export const REJECTION_REASONS = Object.keys(REJECTIONS) as RejectionReason[]

/** The reasons a post is dropped for (answered like a success, kept in the quarantine). */
export type DropReason = {
  [Reason in RejectionReason]: (typeof REJECTIONS)[Reason]['answer'] extends 'dropped'
    ? Reason
    : never
}[RejectionReason]

export const DROP_REASONS = REJECTION_REASONS.filter(
  (reason): reason is DropReason => REJECTIONS[reason].answer === 'dropped',
)

/**
 * Signs in a message's content that it may be spam (docs/contact.md#spam-defence). None of them
 * drops a message: a person may well send a link or two, so a message with a sign is delivered with
 * a marker in its subject and counted, and the company decides.
 *
 * - `links`: more than `MAX_LINKS` links in the subject and message together;
 * - `onlyLinks`: a message that is nothing but links (no words around them);
 * - `linkInName`: a link where a name or a company belongs, a common trick to get a link
 *   into an automatic reply or a CRM;
 * - `repeated`: the same message text as another submission within `REPEAT_WINDOW_MS` (bulk
 *   spam sends one text many times; a person sending twice is rare and still delivered);
 * - `encodedWords`: MIME encoded words (`=?UTF-8?B?…?=`) in the name, company or subject, which
 *   a mail program would have shown decoded (a reversed file name, a link); the mail shows
 *   them as typed, and the link signs read them decoded too.
 */
export const SUSPECT_REASONS = [
  'links',
  'onlyLinks',
  'linkInName',
  'repeated',
  'encodedWords',
] as const

export type SuspectReason = (typeof SUSPECT_REASONS)[number]

/**
 * How long the spam defence remembers a message's text (as a keyed checksum) to recognise it
 * when it comes again; the privacy policy states it.
 */
export const REPEAT_WINDOW_MS = 24 * 3_600_000

/** The text two messages must share to be the same one: the message, case and spacing aside. */
export function repeatableText(message: ContactMessage): string {
  return message.message.toLowerCase().replace(/\s+/gu, ' ').trim()
}

/** A person may mention their site and a document; more is what link spam looks like. */
export const MAX_LINKS = 2

/**
 * A web address as people and bots write it: with a scheme, or starting with `www.`. Linear in
 * the text's length, as a post's text is the sender's to choose: a scheme is tried only where a
 * run of scheme characters begins (the lookbehind), so a long run of `a.a.a…` is scanned once,
 * not once per dot (5,000 characters took 44 ms with `\b` there, 0.1 ms now).
 */
const LINK = /(?:(?<![a-z0-9+.-])[a-z][a-z0-9+.-]*:\/\/|\bwww\.)[^\s<>"'()[\]]+/giu
/**
 * BBCode and HTML links count as links too (`[url=…]`, `<a href=…>`). A tag ends at the next
 * `<` as well, so many unclosed `<a ` are each read to the next one only (linear, as above).
 */
const MARKUP_LINK = /\[url[=\]]|<a\s[^<>]*href/giu

function linkCount(text: string): number {
  return (text.match(LINK)?.length ?? 0) + (text.match(MARKUP_LINK)?.length ?? 0)
}

/**
 * The signs found in a validated message, in the order of `SUSPECT_REASONS` (but `repeated`,
 * which the route finds); none for most. One-line fields are read as typed and decoded
 * (`decodeEncodedWords`), so a link hidden in an encoded word counts.
 */
export function suspectReasons(message: ContactMessage): SuspectReason[] {
  const reasons: SuspectReason[] = []
  // Decoding leaves text without encoded words as it is, so each link is counted once.
  const subject = decodeEncodedWords(message.subject ?? '')
  if (linkCount(`${subject}\n${message.message}`) > MAX_LINKS) reasons.push('links')
  const words = message.message.replace(LINK, ' ').replace(MARKUP_LINK, ' ')
  if (linkCount(message.message) > 0 && !/\p{L}{2}/u.test(words)) reasons.push('onlyLinks')
  const nameAndCompany = `${message.name}\n${message.company ?? ''}`
  if (linkCount(decodeEncodedWords(nameAndCompany)) > 0) reasons.push('linkInName')
  if (hasEncodedWord(`${nameAndCompany}\n${message.subject ?? ''}`)) reasons.push('encodedWords')
  return reasons
}
