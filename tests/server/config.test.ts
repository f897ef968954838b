import { createPublicKey, generateKeyPairSync } from 'node:crypto'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  ConfigError,
  changedPolicySettings,
  isMetricsOnSitePort,
  loadConfig,
} from '#server/config.ts'
import { dkimSigning } from '#server/services/contact/dkim.ts'

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
    ['TRUST_PROXY', '1'],
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
    expect(
      loadConfig({ POLICY_SETTINGS_SINCE: '2026-11-01', CONTACT_RETENTION_DAYS: '14' })
        .POLICY_SETTINGS_SINCE,
    ).toBe('2026-11-01')
  })

  it('refuses a POLICY_SETTINGS_SINCE that dates a text that did not hold on it', () => {
    // A day after today in Germany.
    const tomorrow = new Date(Date.now() + 36 * 3_600_000).toISOString().slice(0, 10)
    expect(() =>
      loadConfig({ POLICY_SETTINGS_SINCE: tomorrow, CONTACT_RETENTION_DAYS: '14' }),
    ).toThrow(/POLICY_SETTINGS_SINCE.*must not be later than today/)
    expect(() => loadConfig({ POLICY_SETTINGS_SINCE: '2026-11-01' })).toThrow(
      /POLICY_SETTINGS_SINCE.*must be unset while the settings the privacy policy states have their defaults/,
    )
  })

  it('takes PSEUDO_LOCALE in development and tests, never in production', () => {
    expect(loadConfig({}).PSEUDO_LOCALE).toBe(false)
    expect(loadConfig({ NODE_ENV: 'development', PSEUDO_LOCALE: '1' }).PSEUDO_LOCALE).toBe(true)
    expect(loadConfig({ NODE_ENV: 'test', PSEUDO_LOCALE: 'true' }).PSEUDO_LOCALE).toBe(true)
    expect(() => loadConfig({ PSEUDO_LOCALE: '1' })).toThrow(
      /PSEUDO_LOCALE.*is for development and tests \(NODE_ENV development or test\), never production/,
    )
    expect(() => loadConfig({ NODE_ENV: 'test', PSEUDO_LOCALE: 'maybe' })).toThrow(
      /PSEUDO_LOCALE.*must be 1 or 0/,
    )
  })

  it('reads TRUST_PROXY as an address list, and refuses a hop count saying what to set', () => {
    expect(loadConfig({ TRUST_PROXY: '10.0.0.0/8, fd00::/8' }).TRUST_PROXY).toEqual([
      '10.0.0.0/8',
      'fd00::/8',
    ])
    expect(loadConfig({ TRUST_PROXY: 'loopback' }).TRUST_PROXY).toEqual(['loopback'])
    expect(() => loadConfig({ TRUST_PROXY: ' 2 ' })).toThrow(
      /TRUST_PROXY.*a hop count lets a client .* choose its own address .* list the proxy's addresses or ranges instead/,
    )
  })
})

describe('DKIM settings', () => {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  const PEM = privateKey.export({ type: 'pkcs8', format: 'pem' }).toString()
  const FROM = 'Modernwerk Website <website@modernwerk.example>'
  const DKIM = {
    MAIL_FROM: FROM,
    DKIM_DOMAIN: 'modernwerk.example',
    DKIM_SELECTOR: 'web2026',
    DKIM_PRIVATE_KEY: PEM,
  }
  const dir = mkdtempSync(join(tmpdir(), 'dkim-config-'))
  afterAll(() => rmSync(dir, { recursive: true, force: true }))

  /** The message loadConfig refuses `env` with. */
  function refusal(env: Record<string, string>): string {
    try {
      loadConfig(env)
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError)
      return (error as Error).message
    }
    throw new Error('accepted')
  }

  function keyFile(name: string, content: string): string {
    const file = join(dir, name)
    writeFileSync(file, content)
    return file
  }

  it('is off unless set, and reads domain, selector and key', () => {
    expect(dkimSigning(loadConfig({}))).toBeUndefined()
    const config = loadConfig({
      ...DKIM,
      DKIM_DOMAIN: 'ModernWerk.Example',
      DKIM_SELECTOR: 'Web2026',
    })
    expect(config.DKIM_DOMAIN).toBe('modernwerk.example')
    expect(config.DKIM_SELECTOR).toBe('web2026')
    expect(config.DKIM_PRIVATE_KEY?.asymmetricKeyType).toBe('rsa')
    expect(dkimSigning(config)).toMatchObject({
      domainName: 'modernwerk.example',
      keySelector: 'web2026',
      privateKey: config.DKIM_PRIVATE_KEY,
    })
  })

  it('reads the key from DKIM_PRIVATE_KEY_FILE', () => {
    const file = keyFile('key.pem', PEM)
    const config = loadConfig({ ...DKIM, DKIM_PRIVATE_KEY: '', DKIM_PRIVATE_KEY_FILE: file })
    expect(config.DKIM_PRIVATE_KEY_FILE?.path).toBe(file)
    expect(dkimSigning(config)?.privateKey).toBe(config.DKIM_PRIVATE_KEY_FILE?.key)
  })

  it.each([
    ['DKIM_DOMAIN', { DKIM_DOMAIN: '' }],
    ['DKIM_SELECTOR', { DKIM_SELECTOR: '' }],
    ['DKIM_PRIVATE_KEY_FILE', { DKIM_PRIVATE_KEY: '' }],
    ['DKIM_DOMAIN', { DKIM_DOMAIN: '', DKIM_PRIVATE_KEY: '' }],
  ])('is all or nothing: without %s it is refused, naming what is missing', (name, unset) => {
    const message = refusal({ ...DKIM, ...unset })
    expect(message).toMatch(
      new RegExp(`^  ${name}="": (or DKIM_PRIVATE_KEY )?must be set as well`, 'm'),
    )
    expect(message).toContain('DKIM signing needs DKIM_DOMAIN, DKIM_SELECTOR and')
  })

  it('takes the key one way only', () => {
    const file = keyFile('both.pem', PEM)
    expect(refusal({ ...DKIM, DKIM_PRIVATE_KEY_FILE: file })).toMatch(
      /DKIM_PRIVATE_KEY_FILE=.*: is set and so is DKIM_PRIVATE_KEY/,
    )
  })

  it.each([
    ['DKIM_SELECTOR', 'web_2026'],
    ['DKIM_SELECTOR', '-web'],
    ['DKIM_SELECTOR', 'web..2026'],
    ['DKIM_SELECTOR', 'web 2026'],
    ['DKIM_SELECTOR', 's'.repeat(64)],
    ['DKIM_DOMAIN', 'modernwerk'],
    ['DKIM_DOMAIN', 'https://modernwerk.example'],
    ['DKIM_DOMAIN', 'modernwerk.example.'],
    ['DKIM_DOMAIN', '-modernwerk.example'],
    ['DKIM_DOMAIN', 'modern werk.example'],
  ])('refuses %s=%s', (name, value) => {
    expect(refusal({ ...DKIM, [name]: value })).toMatch(new RegExp(`^  ${name}=.*: must be`, 'm'))
  })

  it('requires the domain to align with MAIL_FROM: the same or a parent domain', () => {
    // A parent domain signs for a subdomain's sender (DMARC relaxed alignment).
    expect(
      loadConfig({ ...DKIM, MAIL_FROM: 'Website <web@mail.modernwerk.example>' }).DKIM_DOMAIN,
    ).toBe('modernwerk.example')
    expect(loadConfig({ ...DKIM, MAIL_FROM: 'web@MODERNWERK.example' }).DKIM_DOMAIN).toBe(
      'modernwerk.example',
    )
    for (const [domain, from] of [
      ['other.example', FROM],
      // A subdomain does not speak for its parent here; nor does a longer name ending alike.
      ['mail.modernwerk.example', FROM],
      ['dernwerk.example', FROM],
      ['modernwerk.example', 'kontakt'],
    ] as const) {
      const message = refusal({ ...DKIM, DKIM_DOMAIN: domain, MAIL_FROM: from })
      expect(message).toMatch(/^ {2}DKIM_DOMAIN=.*: must be the domain of MAIL_FROM .*\(DMARC\)/m)
    }
  })

  it('accepts an internationalized domain in either form', () => {
    const ascii = 'xn--mller-maschinenbau-m6b.example'
    for (const [domain, from] of [
      ['müller-maschinenbau.example', 'web@müller-maschinenbau.example'],
      [ascii, 'web@müller-maschinenbau.example'],
      ['müller-maschinenbau.example', `web@${ascii}`],
    ]) {
      expect(loadConfig({ ...DKIM, MAIL_FROM: from, DKIM_DOMAIN: domain }).DKIM_DOMAIN).toBe(ascii)
    }
  })

  it.each([
    [
      'an Ed25519 key',
      () => generateKeyPairSync('ed25519').privateKey,
      /is an ed25519 key; .*RSA keys only/,
    ],
    [
      'an EC key',
      () => generateKeyPairSync('ec', { namedCurve: 'prime256v1' }).privateKey,
      /is an ec key; .*RSA keys only/,
    ],
    [
      'an RSA-PSS key',
      () => generateKeyPairSync('rsa-pss', { modulusLength: 2048 }).privateKey,
      /is an rsa-pss key/,
    ],
    [
      'an RSA key under 1024 bits',
      () => generateKeyPairSync('rsa', { modulusLength: 768 }).privateKey,
      /RSA key of 768 bits; receivers refuse DKIM keys under 1024 bits/,
    ],
  ])('refuses %s, saying which keys work', (_kind, make, reason) => {
    const pem = make().export({ type: 'pkcs8', format: 'pem' }).toString()
    const message = refusal({ ...DKIM, DKIM_PRIVATE_KEY: pem })
    expect(message).toMatch(reason)
    expect(message).toContain('openssl genpkey -algorithm RSA -pkeyopt rsa_keygen_bits:2048')
    // The refused key is never repeated.
    expect(message).not.toContain(pem.split('\n')[1])
  })

  it.each([
    [
      'a public key',
      () => createPublicKey(privateKey).export({ type: 'spki', format: 'pem' }).toString(),
      /must be a private key in PEM/,
    ],
    [
      'an encrypted key',
      () =>
        privateKey
          .export({ type: 'pkcs8', format: 'pem', cipher: 'aes-256-cbc', passphrase: 'secret' })
          .toString(),
      /is an encrypted key/,
    ],
    [
      'a key with escaped line breaks',
      () => PEM.replaceAll('\n', '\\n'),
      /line breaks are written as "\\n"/,
    ],
    ['no key at all', () => 'not a key', /must be a private key in PEM/],
  ])('refuses %s in DKIM_PRIVATE_KEY and never prints it', (_kind, make, reason) => {
    const value = make()
    const message = refusal({ ...DKIM, DKIM_PRIVATE_KEY: value })
    expect(message).toMatch(reason)
    expect(message).toMatch(
      new RegExp(`DKIM_PRIVATE_KEY=\\(${value.length} characters, not shown\\)`),
    )
    expect(message).not.toContain(value)
  })

  it('refuses a key file that cannot be read or holds no usable key, naming the file variable', () => {
    expect(
      refusal({ ...DKIM, DKIM_PRIVATE_KEY: '', DKIM_PRIVATE_KEY_FILE: join(dir, 'missing.pem') }),
    ).toMatch(/DKIM_PRIVATE_KEY_FILE=".*missing\.pem": cannot be read \(ENOENT\)/)
    const ed25519 = generateKeyPairSync('ed25519').privateKey.export({
      type: 'pkcs8',
      format: 'pem',
    })
    const file = keyFile('ed25519.pem', ed25519.toString())
    const message = refusal({ ...DKIM, DKIM_PRIVATE_KEY: '', DKIM_PRIVATE_KEY_FILE: file })
    expect(message).toMatch(
      /DKIM_PRIVATE_KEY_FILE=".*ed25519\.pem": holds a key that is an ed25519 key/,
    )
    expect(message).not.toContain(ed25519.toString().split('\n')[1])
  })
})
