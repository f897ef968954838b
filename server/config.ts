import { z } from 'zod'

const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const

/** Absolute http(s) origin without path, query or fragment; a trailing slash is dropped. */
const originUrl = z
  .url({ protocol: /^https?$/, error: 'must be an absolute http(s) URL' })
  .transform((value) => new URL(value))
  .refine((url) => (url.pathname === '/' || url.pathname === '') && !url.search && !url.hash, {
    error: 'must be an origin without path, query or fragment',
  })
  .transform((url) => url.origin)

/**
 * Environment variables (DESIGN.md 9). Names are fixed so that ops, the Helm chart and the
 * tests agree. Defaults make `npm start` work with no configuration at all.
 */
export const ConfigSchema = z.object({
  NODE_ENV: z.enum(['production', 'development', 'test']).default('production'),
  PORT: z.coerce.number().int().min(1).max(65_535).default(3000),
  HOST: z.string().trim().min(1).default('0.0.0.0'),
  APP_BASE_URL: originUrl.default('http://localhost:3000'),
  LOG_LEVEL: z.enum(LOG_LEVELS).default('info'),
  SHUTDOWN_GRACE_MS: z.coerce.number().int().min(0).max(120_000).default(10_000),
  RENDER_TIMEOUT_MS: z.coerce.number().int().min(100).max(60_000).default(10_000),
})

export type Config = Readonly<z.infer<typeof ConfigSchema>>

export class ConfigError extends Error {
  override name = 'ConfigError'
}

/** Parse the environment once into a frozen, typed object; a bad variable throws naming it. */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  // An empty variable means "not set", as in Kubernetes manifests with `value: ""`.
  const present = Object.fromEntries(Object.entries(env).filter(([, value]) => value !== ''))
  const result = ConfigSchema.safeParse(present)
  if (!result.success) {
    const lines = result.error.issues.map((issue) => {
      const name = issue.path.join('.')
      return `  ${name}=${JSON.stringify(env[name] ?? '')}: ${issue.message}`
    })
    throw new ConfigError(`Invalid environment configuration:\n${lines.join('\n')}`)
  }
  return Object.freeze(result.data)
}
