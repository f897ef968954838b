import {
  createPrivateKey,
  createPublicKey,
  createSign,
  createVerify,
  type KeyObject,
} from 'node:crypto'
import type { DKIMOptions } from 'nodemailer'

/**
 * DKIM signing of the site's mails
 * (docs/contact.md#reaching-the-inbox-the-mail-dkim-and-a-spam-filters-view): off unless
 * `DKIM_DOMAIN`, `DKIM_SELECTOR` and a key are set; then nodemailer signs every mail the site sends
 * (leads and the weekly summary) with its own `dkim` transport option.
 */

/**
 * A DNS label as a host name has it: letters, digits and inner hyphens, at most 63 characters
 * (RFC 1035; a DKIM selector is made of such labels, RFC 6376, 3.1).
 */
const LABEL = '(?!-)[a-z0-9-]{1,63}(?<!-)'

/** A selector: one label or several joined by dots (`web2026`, `mail.web`). */
export const DKIM_SELECTOR = new RegExp(`^${LABEL}(?:\\.${LABEL})*$`, 'i')

/** A domain name of two labels or more, at most 253 characters, in its ASCII form. */
export const DOMAIN_NAME = new RegExp(`^(?=.{1,253}$)${LABEL}(?:\\.${LABEL})+$`, 'i')

/**
 * The smallest RSA key a verifier accepts: RFC 8301, 3.2 (verifiers must not accept keys
 * under 1024 bits; signers should use 2048).
 */
const DKIM_MIN_KEY_BITS = 1024

/**
 * The key as nodemailer will sign with it, or an error saying what is wrong with it (never
 * the key). Only an unencrypted RSA key of at least 1024 bits works: nodemailer signs
 * `rsa-sha256` only (it calls `createSign('RSA-SHA256')`), so an Ed25519 key (RFC 8463) would
 * make it send the mail unsigned, and an EC or RSA-PSS key would sign with another algorithm
 * than the header names, a signature no receiver accepts. There is no passphrase variable: a
 * key the process can read is as exposed as its passphrase would be.
 */
export function dkimPrivateKey(pem: string): KeyObject {
  const remedy = 'make one with `openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048`'
  if (/-----BEGIN ENCRYPTED PRIVATE KEY-----|Proc-Type: 4,ENCRYPTED/.test(pem)) {
    throw new Error(
      'is an encrypted key; give it without a passphrase (`openssl pkey -in key.pem -out plain.pem`)',
    )
  }
  let key: KeyObject
  try {
    key = createPrivateKey({ key: pem, format: 'pem' })
  } catch {
    const hint = /\\n/.test(pem) ? ' (its line breaks are written as "\\n", not real ones)' : ''
    throw new Error(
      `must be a private key in PEM ("-----BEGIN PRIVATE KEY-----" or "-----BEGIN RSA PRIVATE KEY-----")${hint}; ${remedy}`,
    )
  }
  if (key.asymmetricKeyType !== 'rsa') {
    throw new Error(
      `is an ${key.asymmetricKeyType ?? 'unknown'} key; the site signs with RSA keys only (rsa-sha256, the algorithm every receiver verifies); ${remedy}`,
    )
  }
  const bits = key.asymmetricKeyDetails?.modulusLength ?? 0
  if (bits < DKIM_MIN_KEY_BITS) {
    throw new Error(
      `is an RSA key of ${bits} bits; receivers refuse DKIM keys under ${DKIM_MIN_KEY_BITS} bits (RFC 8301), 2048 is usual; ${remedy}`,
    )
  }
  // Signed as nodemailer signs, and checked: a key that cannot sign would only show when the
  // first lead goes out unsigned.
  const sample = 'dkim key check'
  const signature = createSign('RSA-SHA256').update(sample).sign(key)
  if (!createVerify('RSA-SHA256').update(sample).verify(createPublicKey(key), signature)) {
    throw new Error(`cannot make a signature its own public key verifies; ${remedy}`)
  }
  return key
}

/**
 * Does a signature of `signingDomain` align with a From address of `fromDomain`? DMARC's
 * relaxed alignment: the same domain or a parent of it (`modernwerk.de` signs for
 * `web.modernwerk.de`). A signature of any other domain is valid but does not speak for the
 * sender, so it would not make the mail pass DMARC.
 */
export function isAlignedDomain(signingDomain: string, fromDomain: string): boolean {
  const signing = signingDomain.toLowerCase()
  const from = fromDomain.toLowerCase()
  return from === signing || from.endsWith(`.${signing}`)
}

/** The DKIM settings as `server/config.ts` validated them (the key file already read). */
export type DkimSettings = {
  DKIM_DOMAIN?: string | undefined
  DKIM_SELECTOR?: string | undefined
  DKIM_PRIVATE_KEY?: KeyObject | undefined
  DKIM_PRIVATE_KEY_FILE?: { key: KeyObject } | undefined
}

/** The DKIM option of the site's mail transport; undefined while signing is off. */
export function dkimSigning(config: DkimSettings): DKIMOptions | undefined {
  const privateKey = config.DKIM_PRIVATE_KEY ?? config.DKIM_PRIVATE_KEY_FILE?.key
  if (!config.DKIM_DOMAIN || !config.DKIM_SELECTOR || !privateKey) return undefined
  return { domainName: config.DKIM_DOMAIN, keySelector: config.DKIM_SELECTOR, privateKey }
}
