import type { ContactMessage } from '#shared/contact-schema.ts'

/**
 * Why a post was dropped or refused, as `contact_rejected_total{reason}` counts it (README,
 * Spam defence). Nothing of a rejected post is stored, mailed or logged beyond its reason.
 * - `foreign`: posted from another site (refused with 403 and a message saying so);
 * - `honeypot`: the hidden field was filled in;
 * - `tokenMissing`, `tokenForged`: no form token, or one this site did not sign for this form
 *   and language;
 * - `tooFast`: sent sooner after the token was issued than a person can fill in a form;
 * - `noBrowser`: a kept page's token (the form without JavaScript) posted without the
 *   browser's word that it comes from this site (`Sec-Fetch-Site`, else `Origin`);
 * - `proofMissing`, `proofInvalid`: a script's token without the proof of work's solution, or
 *   with one that is wrong, changed, expired or not for a challenge of this site's;
 * - `replay`: a token or a solution used again for another message, or the same plain post
 *   sent twice;
 * - `tokenExpired`: a form left open longer than `CONTACT_TOKEN_MAX_AGE` (not spam: the visitor
 *   is told and can send again; counted to see how often it happens).
 * All but `foreign` and `tokenExpired` are answered like a success, so a bot learns nothing.
 */
export const REJECTION_REASONS = [
  'foreign',
  'honeypot',
  'tokenMissing',
  'tokenForged',
  'tooFast',
  'noBrowser',
  'proofMissing',
  'proofInvalid',
  'replay',
  'tokenExpired',
] as const

export type RejectionReason = (typeof REJECTION_REASONS)[number]

/**
 * Signs in a message's content that it may be spam (README, Spam defence). None of them drops
 * a message: a person may well send a link or two, so a message with a sign is delivered with
 * a marker in its subject and counted, and the company decides.
 *
 * - `links`: more than `MAX_LINKS` links in the subject and message together;
 * - `onlyLinks`: a message that is nothing but links (no words around them);
 * - `linkInName`: a link where a name or a company belongs, a common trick to get a link
 *   into an automatic reply or a CRM;
 * - `repeated`: the same message text as another submission within `REPEAT_WINDOW_MS` (bulk
 *   spam sends one text many times; a person sending twice is rare and still delivered).
 */
export const SUSPECT_REASONS = ['links', 'onlyLinks', 'linkInName', 'repeated'] as const

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

/** A web address as people and bots write it: with a scheme, or starting with `www.`. */
const LINK = /(?:\b[a-z][a-z0-9+.-]*:\/\/|\bwww\.)[^\s<>"'()[\]]+/giu
/** BBCode and HTML links count as links too (`[url=…]`, `<a href=…>`). */
const MARKUP_LINK = /\[url[=\]]|<a\s[^>]*href/giu

function linkCount(text: string): number {
  return (text.match(LINK)?.length ?? 0) + (text.match(MARKUP_LINK)?.length ?? 0)
}

/** The signs found in a validated message, in the order of `SUSPECT_REASONS`; none for most. */
export function suspectReasons(message: ContactMessage): SuspectReason[] {
  const reasons: SuspectReason[] = []
  const text = `${message.subject ?? ''}\n${message.message}`
  if (linkCount(text) > MAX_LINKS) reasons.push('links')
  const words = message.message.replace(LINK, ' ').replace(MARKUP_LINK, ' ')
  if (linkCount(message.message) > 0 && !/\p{L}{2}/u.test(words)) reasons.push('onlyLinks')
  if (linkCount(`${message.name}\n${message.company ?? ''}`) > 0) reasons.push('linkInName')
  return reasons
}
