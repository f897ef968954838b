import { describe, expect, it } from 'vitest'
import {
  TRAFFIC_SOURCE_IDS,
  TRAFFIC_SOURCES,
  trafficSource,
} from '#server/services/insight/traffic-sources.ts'

const OWN = 'www.modernwerk.example'

describe('trafficSource', () => {
  it.each([
    ['https://www.google.de/', null, 'google'],
    ['https://www.google.co.uk/search?q=it', null, 'google'],
    ['https://google.com.pl/', null, 'google'],
    ['https://www.bing.com/search?q=erp', null, 'bing'],
    ['https://duckduckgo.com/', null, 'duckduckgo'],
    ['https://www.ecosia.org/', null, 'ecosia'],
    ['https://search.brave.com/search?q=x', null, 'brave'],
    ['https://www.linkedin.com/feed/', null, 'linkedin'],
    ['https://lnkd.in/abc', null, 'linkedin'],
    ['https://www.xing.com/news', null, 'xing'],
    ['https://google.example.com/', null, 'other'],
    ['https://notgoogle.de/', null, 'other'],
    ['https://partner.example/blog/post', null, 'other'],
    ['android-app://com.google.android.gm/', null, 'other'],
    [`https://${OWN}/de/services`, null, 'none'],
    [undefined, null, 'none'],
    ['', null, 'none'],
    ['not a url', null, 'none'],
    [undefined, 'newsletter', 'email'],
    [undefined, 'email', 'email'],
    ['https://www.google.de/', 'LinkedIn', 'linkedin'],
    ['https://www.google.de/', 'spam-campaign-123', 'google'],
  ] as const)('%s with utm_source %s is %s', (referer, utm, expected) => {
    expect(trafficSource(referer, utm, OWN)).toBe(expected)
  })

  it('every source of the table can be reached by its host or its campaign name', () => {
    for (const source of TRAFFIC_SOURCES) {
      const byHost = source.names.map((name) => trafficSource(`https://${name}.de/`, null, OWN))
      const byCampaign = source.utm.map((utm) => trafficSource(undefined, utm, OWN))
      expect([...byHost, ...byCampaign]).toContain(source.id)
    }
  })

  it('any referrer and utm_source map to one of the fixed sources (bounded labels)', () => {
    const seen = new Set<string>()
    const random = (length: number) =>
      Array.from({ length }, () => String.fromCharCode(33 + Math.floor(Math.random() * 94))).join(
        '',
      )
    for (let index = 0; index < 5_000; index++) {
      const host = `${random(6).replace(/[^a-z]/gi, 'x')}.${['de', 'com', 'co.uk', 'pl'][index % 4]}`
      const referer = index % 3 === 0 ? random(40) : `https://${host}/${random(20)}`
      seen.add(trafficSource(referer, index % 5 === 0 ? random(12) : null, OWN))
    }
    expect([...seen].every((source) => TRAFFIC_SOURCE_IDS.includes(source as never))).toBe(true)
    expect(seen.size).toBeLessThanOrEqual(TRAFFIC_SOURCE_IDS.length)
  })
})
