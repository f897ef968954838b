import { readFileSync } from 'node:fs'
import { domainToASCII } from 'node:url'
import { z } from 'zod'
import {
  DKIM_SELECTOR,
  dkimPrivateKey,
  DOMAIN_NAME,
  isAlignedDomain,
  senderDomain,
} from './services/contact/index.ts'
import { SELECTOR } from './services/insight/index.ts'
import { parseAddressList, parseAllowList } from './lib/ip-addresses.ts'
import { legalDay } from '#shared/legal.ts'

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
function addresses(
  value: string,
  context: z.RefinementCtx,
  parse: (value: string) => string[] = parseAddressList,
): string[] {
  try {
    return parse(value)
  } catch (error) {
    context.addIssue({ code: 'custom', message: (error as Error).message })
    return z.NEVER
  }
}

/**
 * `TRUST_PROXY`: the addresses or ranges of the proxies in front (`@fastify/proxy-addr`'s
 * entries and names). Never "true", and never a hop count: with either, a client that reaches
 * the pod past the proxy picks its own address with `X-Forwarded-For`, and with it its
 * rate-limit key (docs/decisions/trust-proxy-by-address.md).
 */
const trustProxy = z.string().transform((value, context) => {
  if (/^\s*\d+\s*$/.test(value)) {
    context.addIssue({
      code: 'custom',
      message:
        "a hop count lets a client that reaches the server directly choose its own address by sending X-Forwarded-For: list the proxy's addresses or ranges instead, e.g. 10.0.0.0/8 for an ingress controller in a pod network of that range, or loopback for a proxy on this machine",
    })
    return z.NEVER
  }
  return addresses(value, context)
})

/** A signing key as ops write it: at least 32 characters (`openssl rand -base64 32`). */
const secretKey = z
  .string()
  .min(32, { error: 'must be at least 32 characters (e.g. `openssl rand -base64 32`)' })

const mailbox = z
  .string()
  .trim()
  .min(3)
  .refine((value) => /^[^\r\n]+$/.test(value), {
    error: 'must be an address like "Name <a@b.de>" or a@b.de',
  })

/** `/metrics`'s own port unless `METRICS_PORT` says otherwise (the chart's `metrics.port`). */
const METRICS_PORT_DEFAULT = 9464

/**
 * Who may read `/metrics` unless `METRICS_ALLOW` says otherwise: loopback and private ranges
 * (docs/decisions/metrics-on-a-port.md).
 */
export const METRICS_ALLOW_DEFAULT = ['loopback', 'uniquelocal'] as const

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
 * Environment variables (docs/configuration.md#configuration). Names are fixed so that ops, the
 * Helm chart and the tests agree. Defaults make `npm start` work with no configuration at all.
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
  /**
   * IPs/CIDRs (or `loopback`, `uniquelocal`, `linklocal`) allowed to read `/metrics`, on
   * whichever port serves it; others get 404. `0.0.0.0/0,::/0` allows everyone. Unset: this
   * machine and the private ranges, so a metrics port that ends up open to the internet still
   * answers no public address (docs/operations.md#operations).
   */
  METRICS_ALLOW: z
    .string()
    .transform((value, context) => addresses(value, context, parseAllowList))
    .default(() => [...METRICS_ALLOW_DEFAULT]),
  /**
   * The port `/metrics` is served on: a port of its own, which a proxy forwarding the site's
   * port never reaches (the site's port answers `/metrics` with 404), or PORT itself for
   * `/metrics` beside the pages. Unset: `METRICS_PORT_DEFAULT` (`loadConfig`; development PORT).
   */
  METRICS_PORT: z.coerce.number().int().min(1).max(65_535).optional(),
  SMTP_URL: z.url({ protocol: /^smtps?$/, error: 'must be an smtp:// or smtps:// URL' }).optional(),
  MAIL_FROM: mailbox.default('Modernwerk Website <website@modernwerk.example>'),
  MAIL_TO: mailbox.default('kontakt@modernwerk.example'),
  /**
   * DKIM signing of every mail the site sends
   * (docs/contact.md#reaching-the-inbox-the-mail-dkim-and-a-spam-filters-view): all of domain,
   * selector and one key, or none (`dkimSettings`). The domain must be MAIL_FROM's or a parent of
   * it.
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
  /**
   * Days a post the spam defence dropped is kept, undelivered, in the quarantine
   * (docs/contact.md#quarantine), where an operator can release a person's message; 0 keeps none.
   */
  QUARANTINE_DAYS: z.coerce.number().int().min(0).max(30).default(7),
  /**
   * When the daily digest of held-back messages goes to `MAIL_TO` (docs/contact.md#quarantine):
   * `HH:MM` in Europe/Berlin, or `off` (only if the quarantine is read daily another way: the
   * privacy policy says it is).
   */
  QUARANTINE_DIGEST_AT: z
    .string()
    .trim()
    .regex(
      /^(?:off|(?:[01]\d|2[0-3]):[0-5]\d)$/,
      'must be a time like "08:00" (Europe/Berlin) or "off"',
    )
    .default('08:00'),
  /** The quarantine's bounds: beyond either, the oldest entries go first. */
  QUARANTINE_MAX_ENTRIES: z.coerce.number().int().min(10).max(100_000).default(1_000),
  QUARANTINE_MAX_BYTES: z.coerce
    .number()
    .int()
    .min(1_048_576)
    .max(1_073_741_824)
    .default(16 * 1_048_576),
  CONTACT_RATE_MAX: z.coerce.number().int().min(1).max(10_000).default(5),
  CONTACT_RATE_WINDOW: duration.default(15 * 60_000),
  /**
   * The key the contact forms' tokens are signed with (docs/contact.md#spam-defence): at least 32
   * characters. Unset: a key made once and kept beside the file outbox, or in Redis with
   * `REDIS_URL` (shared by every replica), so forms open at a restart stay good.
   */
  CONTACT_TOKEN_SECRET: secretKey.optional(),
  /**
   * Keys that signed before the current one (a rotation): comma-separated, still verified for
   * `CONTACT_TOKEN_MAX_AGE` after the change, then to be removed.
   */
  CONTACT_TOKEN_PREVIOUS_SECRETS: z
    .string()
    .transform((value) =>
      value
        .split(',')
        .map((part) => part.trim())
        .filter(Boolean),
    )
    .pipe(z.array(secretKey).min(1, { error: 'must list at least one key' }))
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
   * disk within this; the privacy policy states it (docs/decisions/redis-aof-rewrite-interval.md).
   */
  REDIS_AOF_REWRITE_INTERVAL: duration
    .refine((ms) => ms >= 1_000 && ms <= 86_400_000, {
      error: 'must be between 1 second and 24 hours',
    })
    .default(3_600_000),
  /**
   * The Prometheus that scrapes this site (docs/insight.md#insight-which-pages-bring-leads): set,
   * the app mails the week's insight figures to `MAIL_TO` every Monday; unset (the default), no
   * summary is sent.
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
   * Days the monitoring system keeps the page statistics and lead counters; the privacy policy
   * states it, Prometheus's retention is set to it
   * (docs/insight.md#insight-which-pages-bring-leads). At least the 60 days the report compares;
   * the default is a year and its month for comparison
   * (docs/decisions/statistics-in-the-privacy-policy.md).
   */
  STATISTICS_RETENTION_DAYS: z.coerce.number().int().min(60).max(800).default(60),
  /**
   * The day this deployment's values of the settings the privacy policy states
   * (`POLICY_STATED_SETTINGS`) took effect, if they differ from the defaults: the policy's
   * "last updated" date and history show it
   * (docs/languages.md#legal-texts-that-state-what-the-code-does).
   */
  POLICY_SETTINGS_SINCE: z.iso.date({ error: 'must be a date like 2026-12-01' }).optional(),
  /**
   * Development and tests only: the English texts replaced by the pseudo-locale
   * (shared/pseudo-locale.ts; docs/languages.md#languages). Refused in production.
   */
  PSEUDO_LOCALE: z.stringbool({ error: 'must be 1 or 0' }).default(false),
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
  'QUARANTINE_DAYS',
  'QUARANTINE_DIGEST_AT',
  'STATISTICS_RETENTION_DAYS',
  'REDIS_AOF_REWRITE_INTERVAL',
] as const satisfies readonly (keyof z.infer<typeof ConfigSchema>)[]

/** The stated settings whose values in `config` are not the defaults the history covers. */
export function changedPolicySettings(
  config: z.infer<typeof ConfigSchema>,
): (typeof POLICY_STATED_SETTINGS)[number][] {
  const defaults = ConfigSchema.parse({})
  return POLICY_STATED_SETTINGS.filter((name) => config[name] !== defaults[name])
}

/** The schema with the defaults that depend on other variables filled in. */
const ResolvedConfigSchema = ConfigSchema.superRefine(dkimSettings)
  .superRefine(policySettingsSince)
  .superRefine(pseudoLocaleOutsideProduction)
  .transform((config, context) => {
    if (config.METRICS_PORT !== undefined) return { ...config, METRICS_PORT: config.METRICS_PORT }
    // `npm run dev` keeps /metrics beside its pages (localhost:3000/metrics): dev servers of
    // several checkouts on one machine need no second port each to keep apart
    // (docs/development.md#develop).
    if (config.NODE_ENV === 'development') return { ...config, METRICS_PORT: config.PORT }
    // The site on the default metrics port would serve /metrics beside its pages unasked.
    if (config.PORT === METRICS_PORT_DEFAULT) {
      context.addIssue({
        code: 'custom',
        path: ['METRICS_PORT'],
        message:
          `must be set when PORT is ${METRICS_PORT_DEFAULT}, its default: another port for ` +
          `/metrics, or ${METRICS_PORT_DEFAULT} to serve /metrics on the site's port`,
      })
      return z.NEVER
    }
    return { ...config, METRICS_PORT: METRICS_PORT_DEFAULT }
  })

export type Config = Readonly<z.infer<typeof ResolvedConfigSchema>>

/** Whether `/metrics` is served on the site's port (`METRICS_PORT` equal to `PORT`). */
export function isMetricsOnSitePort(config: Pick<Config, 'PORT' | 'METRICS_PORT'>): boolean {
  return config.METRICS_PORT === config.PORT
}

export class ConfigError extends Error {
  override name = 'ConfigError'
}

/**
 * `POLICY_SETTINGS_SINCE` dates the privacy policy: a day that has not come yet in Germany, or
 * a date while every stated setting has its default (no change to date), would put a date
 * above a text that did not hold on it.
 */
function policySettingsSince(config: z.infer<typeof ConfigSchema>, context: z.RefinementCtx) {
  const since = config.POLICY_SETTINGS_SINCE
  if (since === undefined) return
  const today = legalDay()
  if (since > today) {
    context.addIssue({
      code: 'custom',
      path: ['POLICY_SETTINGS_SINCE'],
      message: `must not be later than today (${today} in Germany): the day the settings took effect`,
    })
  }
  if (changedPolicySettings(config).length === 0) {
    context.addIssue({
      code: 'custom',
      path: ['POLICY_SETTINGS_SINCE'],
      message: `must be unset while the settings the privacy policy states have their defaults (${POLICY_STATED_SETTINGS.join(', ')})`,
    })
  }
}

/** The pseudo-locale is for development and tests: production never serves it. */
function pseudoLocaleOutsideProduction(
  config: z.infer<typeof ConfigSchema>,
  context: z.RefinementCtx,
) {
  if (config.PSEUDO_LOCALE && config.NODE_ENV === 'production') {
    context.addIssue({
      code: 'custom',
      path: ['PSEUDO_LOCALE'],
      message: 'is for development and tests (NODE_ENV development or test), never production',
    })
  }
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

/**
 * Variables whose value an error message must not repeat: keys, and URLs that may carry a
 * password. A key never reaches a log.
 */
const UNSHOWN_VARIABLES: ReadonlySet<string> = new Set([
  'CONTACT_TOKEN_SECRET',
  'CONTACT_TOKEN_PREVIOUS_SECRETS',
  'DKIM_PRIVATE_KEY',
  'SMTP_URL',
  'REDIS_URL',
])

/** Parse the environment once into a frozen, typed object; a bad variable throws naming it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set", as in Kubernetes manifests with `value: ""`.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''))
  const result = ResolvedConfigSchema.safeParse(present)
  if (!result.success) {
    const lines = result.error.issues.map((issue) => {
      const name = String(issue.path[0] ?? '')
      // A key's value never reaches a log, even a wrong one.
      const shown = UNSHOWN_VARIABLES.has(name)
        ? `(${env[name]?.length ?? 0} characters, not shown)`
        : JSON.stringify(env[name] ?? '')
      const item = issue.path.length > 1 ? ` (item ${issue.path.slice(1).join('.')})` : ''
      return `  ${name}=${shown}${item}: ${issue.message}`
    })
    throw new ConfigError(`Invalid environment configuration:\n${lines.join('\n')}`)
  }
  return Object.freeze(result.data)
}
