import { describe, expect, it } from 'vitest'
import { shortenIp } from '#server/plugins/observability.ts'

describe('shortenIp', () => {
  it.each([
    ['203.0.113.77', '203.0.113.0'],
    ['::ffff:198.51.100.23', '::ffff:198.51.100.0'],
    ['2001:db8:85a3:8d3:1319:8a2e:370:7348', '2001:db8:85a3::'],
    ['2001:db8::1', '2001:db8::'],
    ['::1', '::'],
    ['not an ip', 'invalid'],
  ])('%s → %s', (ip, short) => {
    expect(shortenIp(ip)).toBe(short)
  })
})
