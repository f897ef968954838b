import { describe, expect, it } from 'vitest'
import { METRICS_ALLOW_DEFAULT } from '#server/config.ts'
import {
  addressMatcher,
  parseAddressList,
  parseAllowList,
  shortenIp,
} from '#server/lib/ip-addresses.ts'

describe('shortenIp', () => {
  it.each([
    ['203.0.113.77', '203.0.113.0'],
    ['255.250.199.9', '255.250.199.0'],
    ['0.0.0.0', '0.0.0.0'],
    ['256.1.1.1', 'invalid'],
    ['::ffff:198.51.100.23', '::ffff:198.51.100.0'],
    ['2001:db8:85a3:8d3:1319:8a2e:370:7348', '2001:db8:85a3::'],
    ['2001:db8::1', '2001:db8::'],
    ['::1', '::'],
    ['not an ip', 'invalid'],
  ])('%s → %s', (ip, short) => {
    expect(shortenIp(ip)).toBe(short)
  })
})

describe('parseAddressList', () => {
  it('reads IPs, CIDRs and proxy-addr names', () => {
    expect(parseAddressList(' 10.0.0.0/8, fd00::/8 ,192.168.1.4,loopback')).toEqual([
      '10.0.0.0/8',
      'fd00::/8',
      '192.168.1.4',
      'loopback',
    ])
  })

  it.each(['', ',', '10.0.0.0/33', 'fd00::/129', '10.0.0', 'example.de', '10.0.0.0/8/1'])(
    'refuses %j',
    (value) => {
      expect(() => parseAddressList(value)).toThrow()
    },
  )
})

describe('addressMatcher', () => {
  const isAllowed = addressMatcher(['10.0.0.0/8', 'fd00::/8', '192.168.1.4'])
  it.each([
    ['10.1.2.3', true],
    ['::ffff:10.1.2.3', true],
    ['fd12::1', true],
    ['192.168.1.4', true],
    ['192.168.1.5', false],
    ['11.0.0.1', false],
    ['fe80::1', false],
    ['garbage', false],
  ])('%s → %s', (ip, expected) => {
    expect(isAllowed(ip)).toBe(expected)
  })
})

describe('parseAllowList', () => {
  it('reads 0.0.0.0/0 and ::/0, which proxy-addr refuses, as every address', () => {
    expect(() => parseAddressList('0.0.0.0/0')).toThrow()
    const everyone = addressMatcher(parseAllowList('0.0.0.0/0, ::/0'))
    for (const ip of ['0.0.0.0', '8.8.8.8', '255.255.255.255', '::ffff:203.0.113.9', '2001:db8::1'])
      expect(everyone(ip), ip).toBe(true)
    const ipv4 = addressMatcher(parseAllowList('0.0.0.0/0'))
    expect([ipv4('203.0.113.9'), ipv4('2001:db8::1')]).toEqual([true, false])
  })

  it('refuses what parseAddressList refuses', () => {
    expect(() => parseAllowList('10.0.0.0/8, 300.1.1.1')).toThrow('300.1.1.1')
  })
})

describe("METRICS_ALLOW's default", () => {
  const isAllowed = addressMatcher(METRICS_ALLOW_DEFAULT)
  it.each([
    ['127.0.0.1', true],
    ['127.8.9.10', true],
    ['::1', true],
    ['::ffff:127.0.0.1', true],
    ['10.244.1.7', true],
    ['172.16.0.1', true],
    ['172.31.255.254', true],
    ['192.168.178.20', true],
    ['::ffff:192.168.1.2', true],
    ['fd12:3456::1', true],
    ['fc00::1', true],
    ['203.0.113.9', false],
    ['::ffff:203.0.113.9', false],
    ['172.32.0.1', false],
    ['100.64.0.1', false],
    ['169.254.169.254', false],
    ['2001:db8::1', false],
    ['fe80::1', false],
  ])('%s → %s', (ip, expected) => {
    expect(isAllowed(ip)).toBe(expected)
  })
})
