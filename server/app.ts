import { join, resolve } from 'node:path'
import fastifyCompress from '@fastify/compress'
import fastifyCookie from '@fastify/cookie'
import fastifyRateLimit from '@fastify/rate-limit'
import Fastify, {
  LogController,
  type FastifyError,
  type FastifyInstance,
  type FastifyServerOptions,
} from 'fastify'
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod'
import type { Redis } from 'ioredis'
import { COMPANY } from '#shared/company.ts'
import { validateCompanyFacts } from '#shared/company-schema.ts'
import { legalDay, type PolicyFacts } from '#shared/legal.ts'
import type { RuntimeConfig } from '#shared/page-data.ts'
import { changedPolicySettings, isMetricsOnSitePort, type Config } from './config.ts'
import { logDestination } from './log-destination.ts'
import { i18nPlugin } from './plugins/i18n.ts'
import { rendererPlugin, type Renderer } from './plugins/renderer.ts'
import type { ScriptOrigin } from './render/assets.ts'
import { loadScriptIntegrity } from './render/integrity.ts'
import { responseHeadersPlugin } from './plugins/response-headers.ts'
import { securityHeadersPlugin } from './plugins/security-headers.ts'
import { staticAssetsPlugin } from './plugins/static-assets.ts'
import { Registry } from 'prom-client'
import { contactDeliveryPlugin } from './plugins/contact-delivery.ts'
import { PageCache } from './render/page-cache.ts'
import { insightPlugin } from './plugins/insight.ts'
import { insightSummaryPlugin } from './plugins/insight-summary.ts'
import { quarantineDigestPlugin } from './plugins/quarantine-digest.ts'
import { observabilityPlugin, requestId } from './plugins/observability.ts'
import { overloadPlugin } from './plugins/overload.ts'
import { contactRoutes, PERSON_SOURCES_WINDOW_MS, TOKENS_PER_MESSAGE } from './routes/contact.ts'
import { BUILD_ASSETS_DIR, buildRoutes } from './routes/builds.ts'
import { CLIENT_ERROR_RATE_LIMIT, clientErrorRoutes } from './routes/client-errors.ts'
import { cspReportRoutes, SELF_SOURCES_WINDOW_MS } from './routes/csp-reports.ts'
import { healthRoutes } from './routes/health.ts'
import { securityTxtRoutes } from './routes/security-txt.ts'
import { seoRoutes } from './routes/seo.ts'
import { pageRoutes } from './routes/pages.ts'
import { replayKeptPage, servePage, serveErrorPage } from './render/serve-page.ts'
import { COMPRESS_MIN_BYTES } from './render/content-encoding.ts'
import { ExpiringRateLimitStore } from './lib/rate-limit-store.ts'
import { settingsFirstSeen } from './lib/settings-first-seen.ts'
import { digestTime } from './services/contact/index.ts'
import {
  FormTokens,
  loadTokenKeys,
  FileClaimStore,
  MemoryClaimStore,
  PAGE_TOKEN_BUDGET,
  ProofOfWork,
  RedisClaimStore,
  REPEAT_WINDOW_MS,
  type TokenKeys,
} from './services/spam/index.ts'

declare module 'fastify' {
  interface FastifyInstance {
    config: Config
    /** True from SIGTERM on: readiness fails so the ingress stops sending traffic. */
    isShuttingDown: boolean
    /** Prometheus registry of the app's own metrics. */
    metrics: Registry
    /** Embedded in every page as `{ app: { baseURL, cdnURL, buildAssetsDir, … } }`. */
    runtimeConfig: RuntimeConfig
    /** Rendered pages of this build, kept in memory (production only). */
    pageCache: PageCache
    /** The settings the privacy policy states (retention, rate limit, CDN). */
    policyFacts: PolicyFacts
    /** The rate limits' per-IP counters without Redis (with Redis they expire there). */
    rateLimitStore: ExpiringRateLimitStore | null
    /** The contact forms' signed tokens and their one-message claims
     * (docs/contact.md#spam-defence). */
    formTokens: FormTokens
    proofs: ProofOfWork
  }
}

export type AppOverrides = {
  /** Folder with the build output (default `dist/` of the project). */
  distDir?: string
  localesDir?: string
  logger?: FastifyServerOptions['logger']
  wrapRenderer?: (renderer: Renderer) => Renderer
  /** Tests: how often the delivery worker polls, and its first retry delay. */
  deliveryPollMs?: number
  firstRetryMs?: number
  /** Tests: how soon another replica takes over a job whose worker died (Redis queue). */
  redisLockMs?: number
  /** Tests: when the first rewrite of Redis's append-only file after the start comes. */
  firstDiskRewriteMs?: number
}

const ROOT = join(import.meta.dirname, '..')

/**
 * The forms' tokens, claimed once in Redis (several replicas) or, with one, in memory and a
 * file beside the forms' key, so a restart forgets no claim.
 */
async function formTokens(
  app: FastifyInstance,
  redis: Redis | null,
  keys: TokenKeys,
): Promise<FormTokens> {
  const { config } = app
  let claims
  if (redis) {
    claims = new RedisClaimStore(redis)
  } else {
    // A folder that cannot be written never stops the site (as for the key): claims are then
    // held in memory only, and the log says that a restart forgets them.
    const dir = resolve(config.OUTBOX_DIR)
    const kept = await FileClaimStore.open(dir).catch((error: unknown) => {
      app.log.error(
        { err: error, dir },
        'form-token claims cannot be kept beside the outbox: held in memory, so a restart forgets which tokens were used',
      )
      return new MemoryClaimStore()
    })
    app.addHook('onClose', async () => {
      if (kept instanceof FileClaimStore) await kept.flushed()
      kept.close()
    })
    claims = kept
  }
  return new FormTokens(
    keys,
    { minAgeMs: config.CONTACT_TOKEN_MIN_AGE, maxAgeMs: config.CONTACT_TOKEN_MAX_AGE },
    claims,
  )
}

function loggerOptions(config: Config): FastifyServerOptions['logger'] {
  return {
    level: config.LOG_LEVEL,
    // Never log cookies, credentials or what visitors typed.
    redact: {
      paths: ['req.headers.cookie', 'req.headers.authorization', 'res.headers["set-cookie"]'],
      remove: true,
    },
    // Readable lines for a developer at a terminal; in development every line at once; in
    // production buffered JSON (server/log-destination.ts).
    ...(config.NODE_ENV !== 'development'
      ? { stream: logDestination() }
      : process.stdout.isTTY
        ? { transport: { target: 'pino-pretty', options: { ignore: 'pid,hostname' } } }
        : {}),
  }
}

/** Builds the application; never listens (tests call `inject`, `main.ts` listens). */
export async function buildApp(config: Config, overrides: AppOverrides = {}) {
  // The imprint's facts are checked before anything is served.
  validateCompanyFacts(COMPANY)
  const distDir = overrides.distDir ?? join(ROOT, 'dist')
  const app: FastifyInstance = Fastify({
    logger: overrides.logger ?? loggerOptions(config),
    // Fastify's two lines per request are replaced by one in the onResponse hook below.
    logController: new LogController({ disableRequestLogging: true }),
    // The ingress's X-Request-Id if it is a sane id, else a new one (echoed in the response).
    genReqId: requestId,
    requestIdHeader: false,
    // The proxies' addresses only, never a hop count: the client IP is the rate-limit key
    // (docs/decisions/trust-proxy-by-address.md).
    trustProxy: config.TRUST_PROXY ?? false,
    // Behind an ingress: requests must finish in time; idle keep-alive connections outlive
    // the ingress's (60 s for nginx) so it never reuses a socket we are closing.
    requestTimeout: config.REQUEST_TIMEOUT_MS,
    connectionTimeout: config.REQUEST_TIMEOUT_MS,
    keepAliveTimeout: 72_000,
    http: { headersTimeout: 20_000, maxHeaderSize: 16 * 1024 },
    bodyLimit: 64 * 1024,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
  })

  // Route schemas are zod schemas (the same ones the browser uses): they validate requests,
  // serialize responses and type the handlers
  // (docs/decisions/route-schemas-are-zod-through-fastify-type-provider-zod.md).
  app.setValidatorCompiler(validatorCompiler)
  app.setSerializerCompiler(serializerCompiler)
  app.decorate('config', config)
  app.decorate('metrics', new Registry())
  // Several replicas share one rate-limit budget through Redis (REDIS_URL), on a connection
  // that fails at once when Redis is unreachable (the limit then lets requests through; the
  // contact route refuses them itself: docs/decisions/conditions-the-policy-leaves-unstated.md).
  const redis = config.REDIS_URL
    ? // Loaded only when configured: one replica needs no Redis client in memory.
      (await import('./services/contact/index.ts')).failFastRedis(config.REDIS_URL)
    : null
  if (redis) {
    redis.on('error', () => {}) // the contact queue logs Redis errors
    app.addHook('onClose', async () => {
      redis.disconnect()
    })
  }
  // The forms' keys outlive the process (docs/contact.md#spam-defence): configured, kept beside the
  // outbox, or shared through Redis.
  const tokenKeys = await loadTokenKeys({
    secret: config.CONTACT_TOKEN_SECRET,
    previous: config.CONTACT_TOKEN_PREVIOUS_SECRETS,
    dir: resolve(config.OUTBOX_DIR),
    redis,
    log: app.log,
  })
  app.addHook('onClose', async () => tokenKeys.stop())
  app.decorate('formTokens', await formTokens(app, redis, tokenKeys.keys))
  app.decorate('proofs', new ProofOfWork(tokenKeys.keys, config.CONTACT_TOKEN_MAX_AGE))
  app.decorate('isShuttingDown', false)
  app.decorate('pageCache', new PageCache())
  const changedSettings = changedPolicySettings(config)
  // Changed settings without their day: the day any replica first ran with them, kept in the
  // shared store, so every pod and every restart names the same date; never a date above a
  // text no recorded version had (the text may have been online longer; never shorter).
  const firstSeen =
    changedSettings.length > 0 && config.POLICY_SETTINGS_SINCE === undefined
      ? await settingsFirstSeen(
          Object.fromEntries(changedSettings.map((name) => [name, config[name]])),
          legalDay(),
          { redis, dir: resolve(config.OUTBOX_DIR) },
        )
      : null
  app.decorate('policyFacts', {
    contactRetentionDays: config.CONTACT_RETENTION_DAYS,
    rateLimit: {
      max: config.CONTACT_RATE_MAX,
      tokenMax: config.CONTACT_RATE_MAX * TOKENS_PER_MESSAGE,
      pageMax: Math.min(PAGE_TOKEN_BUDGET.perAddress, config.CONTACT_RATE_MAX),
      pageTokenMax: PAGE_TOKEN_BUDGET.perToken,
      windowMs: config.CONTACT_RATE_WINDOW,
    },
    alertSourceWindowsMs: { cspSelf: SELF_SOURCES_WINDOW_MS, person: PERSON_SOURCES_WINDOW_MS },
    hasCdn: config.CDN_URL !== undefined,
    logRetentionDays: config.LOG_RETENTION_DAYS,
    statisticsRetentionDays: config.STATISTICS_RETENTION_DAYS,
    errorReportRateLimit: CLIENT_ERROR_RATE_LIMIT,
    queueDiskBoundMs: config.REDIS_AOF_REWRITE_INTERVAL,
    formTokenMaxAgeMs: config.CONTACT_TOKEN_MAX_AGE,
    repeatWindowMs: REPEAT_WINDOW_MS,
    quarantineDays: config.QUARANTINE_DAYS,
    quarantineDigestAt: digestTime(config.QUARANTINE_DIGEST_AT),
    settingsSince: config.POLICY_SETTINGS_SINCE ?? firstSeen?.day ?? null,
  })
  if (firstSeen) {
    app.log.warn(
      { settings: changedSettings, since: firstSeen.day, kept: firstSeen.kept },
      'the privacy policy states settings that differ from the defaults its dated history covers: it is dated from the day they were first seen until POLICY_SETTINGS_SINCE names the day they took effect',
    )
  }

  const isDevelopment = config.NODE_ENV === 'development'
  // Scripts from the CDN when one is configured, checked by their integrity; from here otherwise.
  const cdnBase = config.CDN_URL && !isDevelopment ? `${config.CDN_URL}/` : undefined
  const scripts: ScriptOrigin = cdnBase
    ? { base: cdnBase, integrity: await loadScriptIntegrity(distDir, cdnBase) }
    : { base: '/' }
  // Pages kept in memory are answered first, with the headers the hooks below wrote when the
  // page was kept (server/render/serve-page.ts, docs/decisions/page-replay.md).
  if (!isDevelopment) app.addHook('onRequest', replayKeptPage(app))
  await app.register(securityHeadersPlugin, {
    isDevelopment,
    cdnUrl: config.CDN_URL,
    inlineScripts: scripts.integrity ? [scripts.integrity.importMapSource] : [],
    hstsMaxAge: config.HSTS_MAX_AGE,
  })
  await app.register(responseHeadersPlugin, { buildId: () => app.renderer.build.id })
  // Before the compression plugin: the files come precompressed, and routes declared before
  // @fastify/compress get none of its hooks.
  if (!isDevelopment) {
    await app.register(staticAssetsPlugin, { clientDir: join(distDir, 'client') })
  }
  // Compression for what the API and SEO routes make per request; assets come precompressed,
  // and the page route compresses what it renders itself (server/render/serve-page.ts).
  await app.register(fastifyCompress, { encodings: ['br', 'gzip'], threshold: COMPRESS_MIN_BYTES })
  // Cookies by @fastify/cookie. `hook: false`: no request parses its Cookie header in advance;
  // the one cookie the site reads (the locale, on `/`) is parsed where it is read, with
  // `app.parseCookie`, so a page answered from memory pays for no parsing
  // (docs/decisions/fastifycookie-with-hook-false.md).
  await app.register(fastifyCookie, { hook: false })
  await app.register(i18nPlugin, {
    localesDir: overrides.localesDir ?? join(ROOT, 'locales'),
    pseudoLocale: config.PSEUDO_LOCALE,
  })
  if (isDevelopment) {
    // `npm run dev`: the same app and render path, with Vite serving the client from source.
    const { devServerPlugin } = await import('./plugins/dev-server.ts')
    await app.register(devServerPlugin, { root: ROOT })
  } else {
    await app.register(rendererPlugin, { distDir, scripts, wrap: overrides.wrapRenderer })
  }

  // 4xx with their message as JSON; a 5xx is logged and answered without internals: JSON
  // under /api/, the static error page elsewhere. Routes with their own answers to refusals
  // (the contact form) handle those in their own error handler.
  app.setErrorHandler((error: FastifyError, request, reply) => {
    const status = error.statusCode && error.statusCode >= 400 ? error.statusCode : 500
    if (status >= 500) request.log.error({ err: error }, 'request failed')
    if (request.url.startsWith('/api/') || status < 500) {
      return reply
        .code(status)
        .send({ error: status >= 500 ? 'Internal Server Error' : error.message })
    }
    return serveErrorPage(app, request, reply, 500)
  })

  app.setNotFoundHandler((request, reply) => {
    if (request.url.startsWith('/api/')) {
      return reply.code(404).send({ error: 'Not Found' })
    }
    // Other methods on page paths: the localized 404 page without React's router.
    if (request.method !== 'GET' && request.method !== 'HEAD') {
      return serveErrorPage(app, request, reply, 404)
    }
    return servePage(app, request, reply)
  })

  await app.register(observabilityPlugin, {
    metricsAllow: config.METRICS_ALLOW,
    metricsPort: isMetricsOnSitePort(config) ? undefined : config.METRICS_PORT,
    host: config.HOST,
  })
  // Page views and leads, counted from requests the site answers anyway
  // (docs/insight.md#insight-which-pages-bring-leads).
  await app.register(insightPlugin)
  // An overloaded process answers 503 with Retry-After instead of queueing without end.
  await app.register(overloadPlugin, {
    maxEventLoopDelayMs: config.MAX_EVENT_LOOP_DELAY_MS ?? (isDevelopment ? 0 : 1_000),
  })

  app.decorate('runtimeConfig', {
    app: {
      baseURL: '/',
      cdnURL: config.CDN_URL ?? '',
      buildAssetsDir: BUILD_ASSETS_DIR,
      buildId: app.renderer.build.id,
      buildTimestamp: app.renderer.build.timestamp,
      buildCheckIntervalMs: config.BUILD_CHECK_INTERVAL_MS,
    },
  })
  // The client IP is a rate-limit key for one window only: Redis expires it (PEXPIRE), and
  // without Redis the store below drops it when the window ends (privacy policy).
  const rateLimitStore = redis ? null : new ExpiringRateLimitStore()
  app.decorate('rateLimitStore', rateLimitStore)
  if (rateLimitStore) app.addHook('onClose', async () => rateLimitStore.clear())
  await app.register(fastifyRateLimit, {
    global: false,
    ...(redis
      ? { redis, nameSpace: 'modernwerk:rate-limit:', skipOnError: true }
      : { store: rateLimitStore?.Store }),
    errorResponseBuilder: (_request, context) => ({
      statusCode: 429,
      code: 'RATE_LIMITED',
      message: 'Too many requests',
      retryAfterSeconds: Math.max(1, Math.ceil(context.ttl / 1000)),
    }),
  })
  await app.register(contactDeliveryPlugin, {
    metrics: app.metrics,
    redis,
    pollMs: overrides.deliveryPollMs,
    firstRetryMs: overrides.firstRetryMs,
    redisLockMs: overrides.redisLockMs,
    firstDiskRewriteMs: overrides.firstDiskRewriteMs,
  })

  // The weekly insight summary to MAIL_TO, when a Prometheus to read it from is set.
  await app.register(insightSummaryPlugin)
  await app.register(quarantineDigestPlugin)
  await app.register(healthRoutes)
  await app.register(buildRoutes)
  await app.register(clientErrorRoutes)
  await app.register(cspReportRoutes, {
    origins: { own: new URL(config.APP_BASE_URL).origin, cdn: config.CDN_URL },
  })
  await app.register(contactRoutes)
  await app.register(seoRoutes)
  await app.register(securityTxtRoutes)
  await app.register(pageRoutes)
  return app
}
