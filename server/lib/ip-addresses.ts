import proxyAddr from '@fastify/proxy-addr'
import ipaddr from 'ipaddr.js'
import { FIGURES } from '#shared/figures.ts'

/**
 * IP addresses and ranges, parsed by the libraries Fastify itself uses: one set of rules for
 * `TRUST_PROXY` (which Fastify compiles with @fastify/proxy-addr), `METRICS_ALLOW` and the
 * shortened addresses of the access log
 * (docs/decisions/ip-lists-are-parsed-by-fastifyproxy-addr.md).
 */

/**
 * A comma-separated list of IPs, CIDRs (`10.0.0.0/8`, `fd00::/8`) or proxy-addr's names
 * (`loopback`, `linklocal`, `uniquelocal`). Throws an error naming the first bad entry.
 */
export function parseAddressList(value: string): string[] {
  const entries = value
    .split(',')
    .map((entry) => entry.trim())
    .filter(Boolean)
  if (entries.length === 0) throw new Error('must list at least one IP or CIDR')
  for (const entry of entries) {
    if (!isAddressOrRange(entry)) {
      throw new Error(`"${entry}" is not an IP, a CIDR or loopback/linklocal/uniquelocal`)
    }
  }
  return entries
}

/** `0.0.0.0/0` and `::/0` as ranges proxy-addr takes: it refuses a prefix of 0. */
const EVERY_ADDRESS: Record<string, string[]> = {
  '0.0.0.0/0': ['0.0.0.0/1', '128.0.0.0/1'],
  '::/0': ['::/1', '8000::/1'],
}

/**
 * An allow list (`METRICS_ALLOW`): `parseAddressList`'s entries, and `0.0.0.0/0` or `::/0`
 * for every IPv4 or IPv6 address, each kept as its two halves. Never for `TRUST_PROXY`:
 * trusting every address would let anyone pick their rate-limit key.
 */
export function parseAllowList(value: string): string[] {
  const entries = value.split(',').flatMap((entry) => EVERY_ADDRESS[entry.trim()] ?? [entry])
  return parseAddressList(entries.join(','))
}

const NAMES = new Set(['loopback', 'linklocal', 'uniquelocal'])

function isAddressOrRange(entry: string): boolean {
  if (NAMES.has(entry)) return true
  // Dotted quads only: ipaddr.js would also read the legacy `10.0.0` as `10.0.0.0`.
  const address = entry.split('/')[0] ?? ''
  if (!ipaddr.IPv4.isValidFourPartDecimal(address) && !ipaddr.IPv6.isValid(address)) return false
  try {
    proxyAddr.compile(entry)
    return true
  } catch {
    return false
  }
}

/** Whether an address lies in a list made by `parseAddressList`. */
export function addressMatcher(entries: readonly string[]): (ip: string) => boolean {
  const isTrusted = proxyAddr.compile([...entries])
  return (ip) => ipaddr.isValid(ip) && isTrusted(ip, 0)
}

const OCTET = '(?:25[0-5]|2[0-4]\\d|1\\d\\d|[1-9]?\\d)'
const DOTTED_QUAD = new RegExp(`^(${OCTET}\\.${OCTET}\\.${OCTET})\\.${OCTET}$`)

/**
 * `203.0.113.77` → `203.0.113.0`; IPv6 keeps its first 48 bits (the last 80 zeroed, as the
 * privacy policy says: `FIGURES.ipv6DroppedBits`).
 */
export function shortenIp(ip: string): string {
  // The common case without parsing: a canonical dotted quad keeps its first three parts.
  const quad = DOTTED_QUAD.exec(ip)
  if (quad) return `${quad[1]}.0`
  if (!ipaddr.isValid(ip)) return 'invalid'
  const address = ipaddr.parse(ip)
  if (address instanceof ipaddr.IPv4) {
    const [a, b, c] = address.octets
    return `${a}.${b}.${c}.0`
  }
  if (address.isIPv4MappedAddress())
    return `::ffff:${shortenIp(address.toIPv4Address().toString())}`
  const kept = address.parts.slice(0, (128 - FIGURES.ipv6DroppedBits) / 16)
  return new ipaddr.IPv6([...kept, ...new Array<number>(8 - kept.length).fill(0)]).toString()
}
