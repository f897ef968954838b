import { readFileSync } from 'node:fs'
import { domainToASCII } from 'node:url'
import { z } from 'zod'
import { DKIM_SELECTOR, DOMAIN_NAME, dkimPrivateKey, isAlignedDomain } from './services/dkim.ts'
import { SELECTOR } from './services/label-selector.ts'
import { parseAddressList } from './services/ip-addresses.ts'
import { senderDomain } from './services/mail-address.ts'

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

/** Absolute http(s) origin without path, query or fragment; a trailing slash is dropped. */
const originUrl = z
  .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' })
  .transform((value) => new URL(value))
  .refine((url) => (url.pathname === '/' || url.pathname === '') && !url.search && !url.hash, {
    error: 'must be an origin without path, query or fragment',
  })
  .transform((url) => url.origin)

const DURATION_UNITS = { second: 1_000, minute: 60_000, hour: 3_600_000 } as const

/** `15 minutes`, `1 hour`, `90 seconds` or plain milliseconds → milliseconds. */
const duration = z.string().transform((value, context) => {
  const match = /^\s*(\d+)\s*(seconds?|minutes?|hours?)?\s*$/.exec(value)
  const amount = Number(match?.[1])
  const unit = match?.[2]?.replace(/s$/, '') as keyof typeof DURATION_UNITS | undefined
  if (!match || !Number.isSafeInteger(amount) || amount <= 0) {
    context.addIssue({
      code: 'custom',
      message: 'must be like "15 minutes", "1 hour" or milliseconds',
    })
    return z.NEVER
  }
  return amount * (unit ? DURATION_UNITS[unit] : 1)
})

/** A list of IPs/CIDRs (`parseAddressList`); a bad entry is refused with the reason. */
function addresses(value: string, context: z.RefinementCtx): string[] {
  try {
    return parseAddressList(value)
  } catch (error) {
    context.addIssue({ code: 'custom', message: (error as Error).message })
    return z.NEVER
  }
}

/**
 * `TRUST_PROXY`: how many proxy hops to trust, or the addresses/CIDRs of the ingress. Never
 * "true": trusting every `X-Forwarded-For` would let anyone pick their rate-limit key.
 */
const trustProxy = z
  .string()
  .transform((value, context) =>
    /^\s*\d+\s*$/.test(value) ? Number(value) : addresses(value, context),
  )

const mailbox = z
  .string()
  .trim()
  .min(3)
  .refine((value) => /^[^\r\n]+$/.test(value), {
    error: 'must be an address like "Name <a@b.de>" or a@b.de',
  })

/** A domain name in its ASCII form (an internationalized one as punycode), lower case. */
const domainName = z
  .string()
  .trim()
  .transform((value, context) => {
    const ascii = domainToASCII(value)
    if (!DOMAIN_NAME.test(ascii)) {
      context.addIssue({ code: 'custom', message: 'must be a domain name like modernwerk.de' })
      return z.NEVER
    }
    return ascii
  })

/** A private key to sign mails with (`dkimPrivateKey` says which work); never printed. */
const dkimKey = z.string().transform((pem, context) => {
  try {
    return dkimPrivateKey(pem)
  } catch (error) {
    context.addIssue({ code: 'custom', message: (error as Error).message })
    return z.NEVER
  }
})

/** The file of such a key (a mounted Secret): read once at start. */
const dkimKeyFile = z
  .string()
  .trim()
  .min(1)
  .transform((path, context) => {
    let pem: string
    try {
      pem = readFileSync(path, 'utf8')
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? 'unknown error'
      context.addIssue({ code: 'custom', message: `cannot be read (${code})` })
      return z.NEVER
    }
    try {
      return { path, key: dkimPrivateKey(pem) }
    } catch (error) {
      context.addIssue({ code: 'custom', message: `holds a key that ${(error as Error).message}` })
      return z.NEVER
    }
  })

/**
 * Environment variables (README, Configuration). Names are fixed so that ops, the Helm chart and the
 * tests agree. Defaults make `npm start` work with no configuration at all.
 */
export const ConfigSchema = z.object({
  NODE_ENV: z.enum(['production', 'development', 'test']).default('production'),
  PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  APP_BASE_URL: originUrl.default('http://localhost:3000'),
  /** Origin serving the hashed assets (`/assets/…`), if any: `https://cdn.example.de`. */
  CDN_URL: originUrl.optional(),
  /** How often open pages ask for a new build; shorter only for tests. */
  BUILD_CHECK_INTERVAL_MS: z.coerce.number().int().min(1_000).max(86_400_000).default(3_600_000),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
  RENDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
  /** A request (body included) must be complete within this; the ingress's is longer. */
  REQUEST_TIMEOUT_MS: z.coerce.number().int().min(500).max(300_000).default(30_000),
  /**
   * Mean event-loop delay (ms) above which the process refuses requests with 503 and its
   * readiness probe fails; 0 turns the guard off. Unset: 1000 in production, off in
   * development (Vite's first transforms block the loop for seconds).
   */
  MAX_EVENT_LOOP_DELAY_MS: z.coerce
    .number()
    .int()
    .refine((value) => value === 0 || (value >= 100 && value <= 60_000), {
      error: 'must be 0 (off) or between 100 and 60000 milliseconds',
    })
    .optional(),
  /** `Strict-Transport-Security` max-age in seconds; 0 turns the header off. */
  HSTS_MAX_AGE: z.coerce.number().int().min(0).max(63_072_000).default(31_536_000),
  /** IPs/CIDRs allowed to read `/metrics` (e.g. the cluster network); unset: everyone. */
  METRICS_ALLOW: z.string().transform(addresses).optional(),
  /** A port of its own for `/metrics` (the site's port then answers it with 404); unset: PORT. */
  METRICS_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  MAIL_FROM: mailbox.default('Modernwerk Website <website@modernwerk.example>'),
  MAIL_TO: mailbox.default('kontakt@modernwerk.example'),
  /**
   * DKIM signing of every mail the site sends (README, Reaching the inbox): all of domain,
   * selector and one key, or none (`dkimSettings`). The domain must be MAIL_FROM's or a parent
   * of it.
   */
  DKIM_DOMAIN: domainName.optional(),
  DKIM_SELECTOR: z
    .string()
    .trim()
    .regex(DKIM_SELECTOR, {
      error: 'must be a DNS label or several joined by dots, like "web2026" or "mail.web"',
    })
    .transform((value) => value.toLowerCase())
    .optional(),
  /** The key as PEM text; DKIM_PRIVATE_KEY_FILE (a mounted Secret) keeps it out of the environment. */
  DKIM_PRIVATE_KEY: dkimKey.optional(),
  DKIM_PRIVATE_KEY_FILE: dkimKeyFile.optional(),
  OUTBOX_DIR: z.string().trim().min(1).default('./data/outbox'),
  /** Days an undeliverable contact message is kept before it is deleted (privacy policy). */
  CONTACT_RETENTION_DAYS: z.coerce.number().int().min(1).max(365).default(30),
  CONTACT_RATE_MAX: z.coerce.number().int().min(1).max(10_000).default(5),
  CONTACT_RATE_WINDOW: duration.default(15 * 60_000),
  /**
   * The key the contact forms' tokens are signed with (README, Spam defence): at least 32
   * characters, the same on every replica. Unset: a random key made at start, which is right
   * for one replica only (a token another replica issued would not verify).
   */
  CONTACT_TOKEN_SECRET: z
    .string()
    .min(32, { error: 'must be at least 32 characters (e.g. `openssl rand -base64 32`)' })
    .optional(),
  /** A form sent sooner than this after its token was issued is a bot's. */
  CONTACT_TOKEN_MIN_AGE: duration
    .refine((ms) => ms <= 60_000, { error: 'must be at most 60 seconds' })
    .default(3_000),
  /** A token older than this has expired: the visitor is asked to send again. */
  CONTACT_TOKEN_MAX_AGE: duration
    .refine((ms) => ms >= 3_600_000 && ms <= 7 * 86_400_000, {
      error: 'must be between 1 hour and 168 hours',
    })
    .default(6 * 3_600_000),
  TRUST_PROXY: trustProxy.optional(),
  REDIS_URL: z
    .url({ protocol: /^rediss?$/, error: 'must be a redis:// or rediss:// URL' })
    .optional(),
  /**
   * With Redis: how often each replica has Redis rewrite its append-only file, so that what
   * was deleted (delivered, purged or erased messages, expired rate-limit keys) leaves the
   * disk within this; the privacy policy states it.
   */
  REDIS_AOF_REWRITE_INTERVAL: duration
    .refine((ms) => ms >= 1_000 && ms <= 86_400_000, {
      error: 'must be between 1 second and 24 hours',
    })
    .default(3_600_000),
  /**
   * The Prometheus that scrapes this site (README, Insight): set, the app mails the week's
   * insight figures to `MAIL_TO` every Monday; unset (the default), no summary is sent.
   */
  INSIGHT_SUMMARY_PROMETHEUS_URL: z
    .url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })
    .optional(),
  /** Label matchers picking this deployment's series there: `namespace="web"`. */
  INSIGHT_SUMMARY_SELECTOR: z
    .string()
    .regex(SELECTOR, { error: 'must be label matchers, e.g. namespace="web", service="website"' })
    .default(''),
  /** Days the platform's log collection keeps the app's log; the privacy policy states it. */
  LOG_RETENTION_DAYS: z.coerce.number().int().min(1).max(90).default(14),
  /**
   * The day this deployment's values of the settings the privacy policy states
   * (`POLICY_STATED_SETTINGS`) took effect, if they differ from the defaults: the policy's
   * "last updated" date and history show it (README, Legal texts).
   */
  POLICY_SETTINGS_SINCE: z.iso.date({ error: 'must be a date like 2026-12-01' }).optional(),
})

/**
 * The settings whose values the privacy policy states (and, for `CDN_URL`, the cookie
 * policy). The texts' dated history (shared/legal.ts) covers their defaults; other values are
 * a change of those texts that needs a date.
 */
export const POLICY_STATED_SETTINGS = [
  'CDN_URL',
  'CONTACT_RETENTION_DAYS',
  'CONTACT_RATE_MAX',
  'CONTACT_RATE_WINDOW',
  'CONTACT_TOKEN_MAX_AGE',
  'LOG_RETENTION_DAYS',
  'REDIS_AOF_REWRITE_INTERVAL',
] as const satisfies readonly (keyof z.infer<typeof ConfigSchema>)[]

/** The stated settings whose values in `config` are not the defaults the history covers. */
export function changedPolicySettings(config: Config): (typeof POLICY_STATED_SETTINGS)[number][] {
  const defaults = ConfigSchema.parse({})
  return POLICY_STATED_SETTINGS.filter((name) => config[name] !== defaults[name])
}

export type Config = Readonly<z.infer<typeof ConfigSchema>>

export class ConfigError extends Error {
  override name = 'ConfigError'
}

const DKIM_VARIABLES = [
  'DKIM_DOMAIN',
  'DKIM_SELECTOR',
  'DKIM_PRIVATE_KEY',
  'DKIM_PRIVATE_KEY_FILE',
] as const

/**
 * DKIM's variables belong together: a half-configured signer would send unsigned mail while
 * ops believe it signs. Each missing one is named; the signing domain must align with the
 * sender's (DMARC), else the signature is worth nothing to the receiver.
 */
function dkimSettings(config: z.infer<typeof ConfigSchema>, context: z.RefinementCtx) {
  const given = DKIM_VARIABLES.filter((name) => config[name] !== undefined)
  if (given.length === 0) return
  const needs = `DKIM signing needs DKIM_DOMAIN, DKIM_SELECTOR and DKIM_PRIVATE_KEY or DKIM_PRIVATE_KEY_FILE (set: ${given.join(', ')})`
  for (const name of ['DKIM_DOMAIN', 'DKIM_SELECTOR'] as const) {
    if (config[name] === undefined) {
      context.addIssue({ code: 'custom', path: [name], message: `must be set as well: ${needs}` })
    }
  }
  if (config.DKIM_PRIVATE_KEY === undefined && config.DKIM_PRIVATE_KEY_FILE === undefined) {
    context.addIssue({
      code: 'custom',
      path: ['DKIM_PRIVATE_KEY_FILE'],
      message: `or DKIM_PRIVATE_KEY must be set as well: ${needs}`,
    })
  }
  if (config.DKIM_PRIVATE_KEY !== undefined && config.DKIM_PRIVATE_KEY_FILE !== undefined) {
    context.addIssue({
      code: 'custom',
      path: ['DKIM_PRIVATE_KEY_FILE'],
      message: 'is set and so is DKIM_PRIVATE_KEY: give the key one way only',
    })
  }
  const from = senderDomain(config.MAIL_FROM)
  const fromAscii = from === undefined ? '' : domainToASCII(from)
  if (config.DKIM_DOMAIN !== undefined && !isAlignedDomain(config.DKIM_DOMAIN, fromAscii)) {
    context.addIssue({
      code: 'custom',
      path: ['DKIM_DOMAIN'],
      message: `must be the domain of MAIL_FROM (${from ?? 'which has none'}) or a parent domain of it: receivers count a signature for the sender only when its domain aligns with the From address (DMARC), so a signature of another domain would not help the mail into the inbox`,
    })
  }
}

/** Variables whose value an error message must not repeat: a key never reaches a log. */
const UNSHOWN_VARIABLES: ReadonlySet<string> = new Set(['DKIM_PRIVATE_KEY'])

/** Parse the environment once into a frozen, typed object; a bad variable throws naming it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set", as in Kubernetes manifests with `value: ""`.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''))
  const result = ConfigSchema.refine(
    (config) => config.METRICS_PORT === undefined || config.METRICS_PORT !== config.PORT,
    { path: ['METRICS_PORT'], error: 'must differ from PORT' },
  )
    .superRefine(dkimSettings)
    .safeParse(present)
  if (!result.success) {
    const lines = result.error.issues.map((issue) => {
      const name = issue.path.join('.')
      const value = UNSHOWN_VARIABLES.has(name)
        ? `(${env[name]?.length ?? 0} characters, not shown)`
        : JSON.stringify(env[name] ?? '')
      return `  ${name}=${value}: ${issue.message}`
    })
    throw new ConfigError(`Invalid environment configuration:\n${lines.join('\n')}`)
  }
  return Object.freeze(result.data)
}
