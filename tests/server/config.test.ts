import { describe, expect, it } from 'vitest'
import {
  ConfigError,
  changedPolicySettings,
  isMetricsOnSitePort,
  loadConfig,
} from '#server/config.ts'

describe('loadConfig', () => {
  it('needs no configuration at all', () => {
    expect(loadConfig({})).toMatchObject({
      PORT: 3000,
      HOST: '0.0.0.0',
      APP_BASE_URL: 'http://localhost:3000',
      LOG_LEVEL: 'info',
      SHUTDOWN_GRACE_MS: 10_000,
      // /metrics on a port of its own, for this machine and the private ranges only.
      METRICS_PORT: 9464,
      METRICS_ALLOW: ['loopback', 'uniquelocal'],
    })
  })

  it('reads and normalizes variables', () => {
    const config = loadConfig({ PORT: '8080', APP_BASE_URL: 'https://www.example.de/' })
    expect(config.PORT).toBe(8080)
    expect(config.APP_BASE_URL).toBe('https://www.example.de')
    expect(Object.isFrozen(config)).toBe(true)
  })

  it('treats an empty variable as unset', () => {
    expect(loadConfig({ PORT: '' }).PORT).toBe(3000)
  })

  it.each([
    ['PORT', '70000'],
    ['PORT', 'abc'],
    ['APP_BASE_URL', 'ftp://example.de'],
    ['APP_BASE_URL', 'https://example.de/path'],
    ['APP_BASE_URL', 'not a url'],
    ['LOG_LEVEL', 'loud'],
    ['TRUST_PROXY', 'true'],
    ['TRUST_PROXY', '10.0.0.0/33'],
    ['METRICS_ALLOW', '10.0.0.0/8, 300.1.1.1'],
    ['METRICS_ALLOW', 'fd00::/200'],
    ['METRICS_ALLOW', '0.0.0.0/0.0.0.0'],
    ['METRICS_PORT', '0'],
    ['MAX_EVENT_LOOP_DELAY_MS', '50'],
    ['MAX_EVENT_LOOP_DELAY_MS', '-1'],
    ['MAX_EVENT_LOOP_DELAY_MS', '1.5'],
    ['MAX_EVENT_LOOP_DELAY_MS', 'fast'],
    ['LOG_RETENTION_DAYS', '0'],
    ['LOG_RETENTION_DAYS', '91'],
    ['REDIS_AOF_REWRITE_INTERVAL', '500'],
    ['REDIS_AOF_REWRITE_INTERVAL', '25 hours'],
    ['POLICY_SETTINGS_SINCE', '1 March 2031'],
    ['POLICY_SETTINGS_SINCE', '2031-02-30'],
  ])('refuses %s=%s with a message naming the variable', (name, value) => {
    expect(() => loadConfig({ [name]: value })).toThrow(ConfigError)
    expect(() => loadConfig({ [name]: value })).toThrow(new RegExp(`${name}=`))
  })

  it("reads METRICS_PORT: a port of its own, or PORT itself for /metrics on the site's port", () => {
    expect(loadConfig({ METRICS_PORT: '9100' })).toMatchObject({ PORT: 3000, METRICS_PORT: 9100 })
    expect(isMetricsOnSitePort(loadConfig({}))).toBe(false)
    expect(isMetricsOnSitePort(loadConfig({ PORT: '8080', METRICS_PORT: '8080' }))).toBe(true)
    // `npm run dev`: beside the pages, unless set.
    expect(loadConfig({ NODE_ENV: 'development', PORT: '4000' }).METRICS_PORT).toBe(4000)
    expect(loadConfig({ NODE_ENV: 'development', METRICS_PORT: '9100' }).METRICS_PORT).toBe(9100)
  })

  it('refuses PORT=9464 without METRICS_PORT: the site would serve /metrics unasked', () => {
    expect(() => loadConfig({ PORT: '9464' })).toThrow(/METRICS_PORT="": must be set when PORT/)
    expect(loadConfig({ PORT: '9464', METRICS_PORT: '9464' }).METRICS_PORT).toBe(9464)
    expect(loadConfig({ PORT: '9464', METRICS_PORT: '9465' }).METRICS_PORT).toBe(9465)
  })

  it('reads METRICS_ALLOW, 0.0.0.0/0,::/0 for everyone', () => {
    expect(loadConfig({ METRICS_ALLOW: '10.0.0.0/8, fd00::/8' }).METRICS_ALLOW).toEqual([
      '10.0.0.0/8',
      'fd00::/8',
    ])
    expect(loadConfig({ METRICS_ALLOW: '0.0.0.0/0,::/0' }).METRICS_ALLOW).toEqual([
      '0.0.0.0/1',
      '128.0.0.0/1',
      '::/1',
      '8000::/1',
    ])
  })

  it('reads MAX_EVENT_LOOP_DELAY_MS: 0 switches the overload guard off, unset leaves the default', () => {
    expect(loadConfig({ MAX_EVENT_LOOP_DELAY_MS: '0' }).MAX_EVENT_LOOP_DELAY_MS).toBe(0)
    expect(loadConfig({ MAX_EVENT_LOOP_DELAY_MS: '250' }).MAX_EVENT_LOOP_DELAY_MS).toBe(250)
    expect(loadConfig({}).MAX_EVENT_LOOP_DELAY_MS).toBeUndefined()
  })

  it('reads the bounds the privacy policy states: log retention and the Redis AOF rewrite', () => {
    expect(loadConfig({})).toMatchObject({
      LOG_RETENTION_DAYS: 14,
      REDIS_AOF_REWRITE_INTERVAL: 3_600_000,
    })
    expect(
      loadConfig({ LOG_RETENTION_DAYS: '30', REDIS_AOF_REWRITE_INTERVAL: '15 minutes' }),
    ).toMatchObject({ LOG_RETENTION_DAYS: 30, REDIS_AOF_REWRITE_INTERVAL: 900_000 })
  })

  it('names the settings the privacy policy states that differ from the defaults its history covers', () => {
    expect(changedPolicySettings(loadConfig({}))).toEqual([])
    expect(changedPolicySettings(loadConfig({ CONTACT_RATE_WINDOW: '15 minutes' }))).toEqual([])
    expect(
      changedPolicySettings(loadConfig({ CONTACT_RETENTION_DAYS: '14', LOG_RETENTION_DAYS: '7' })),
    ).toEqual(['CONTACT_RETENTION_DAYS', 'LOG_RETENTION_DAYS'])
    expect(changedPolicySettings(loadConfig({ CDN_URL: 'https://cdn.example.de' }))).toEqual([
      'CDN_URL',
    ])
    expect(loadConfig({ POLICY_SETTINGS_SINCE: '2031-03-01' }).POLICY_SETTINGS_SINCE).toBe(
      '2031-03-01',
    )
  })

  it('reads TRUST_PROXY as a hop count or an address list', () => {
    expect(loadConfig({ TRUST_PROXY: '2' }).TRUST_PROXY).toBe(2)
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, fd00::/8' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      'fd00::/8',
    ])
  })
})
