/**
 * The domain of a sender address as written (`Website <web@modernwerk.de>` → `modernwerk.de`);
 * undefined for an address without one. The Message-IDs and the DKIM alignment check take it
 * from `MAIL_FROM`.
 */
export function senderDomain(from: string): string | undefined {
  return /@([^\s>@]+)>?\s*$/.exec(from)?.[1]
}

/**
 * A recipient as the `To` header shows it: as written when it has a display name, else with
 * `name` (`kontakt@modernwerk.de` → `Modernwerk <kontakt@modernwerk.de>`). A bare address
 * beside percentages in the body is what SpamAssassin's TO_NO_BRKTS_PCNT scores (1.0 point,
 * the weekly summary's figures); a named one is also what a person's mail shows
 * (docs/decisions/the-to-header-names-the-company.md).
 */
export function namedRecipient(
  to: string,
  name: string,
): string | { name: string; address: string } {
  return /<[^<>@\s]+@[^<>\s]+>\s*$/.test(to) ? to : { name, address: to.trim() }
}
