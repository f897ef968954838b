import { describe, expect, it } from 'vitest'
import { addressMatcher, parseAddressList, shortenIp } from '#server/services/ip-addresses.ts'

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
