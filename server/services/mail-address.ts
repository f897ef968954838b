/**
 * The domain of a sender address as written (`Website <web@modernwerk.de>` → `modernwerk.de`);
 * undefined for an address without one. The Message-IDs and the DKIM alignment check take it
 * from `MAIL_FROM`.
 */
export function senderDomain(from: string): string | undefined {
  return /@([^\s>@]+)>?\s*$/.exec(from)?.[1]
}
