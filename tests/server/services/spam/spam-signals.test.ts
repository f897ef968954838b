import { describe, expect, it } from 'vitest'
import type { ContactMessage } from '#shared/contact-schema.ts'
import { suspectReasons } from '#server/services/spam/index.ts'

const message = (fields: Partial<ContactMessage>): ContactMessage => ({
  name: 'Anna Nowak',
  email: 'anna@example.com',
  service: 'cloud',
  message: 'We would like to move our ERP to the cloud next year.',
  locale: 'en',
  ...fields,
})

/**
 * Texts that made the link patterns backtrack once per position: runs of scheme characters
 * with no `://` after them, and HTML tags that never close.
 */
const HOSTILE: Record<string, (length: number) => string> = {
  'a.a.a…': (length) => 'a.'.repeat(length / 2),
  'ab-ab-…': (length) => 'ab-'.repeat(Math.ceil(length / 3)),
  'wwww.wwww.…': (length) => 'wwww.'.repeat(length / 5),
  '<a <a <a …': (length) => '<a '.repeat(Math.ceil(length / 3)),
  'long words with dots': (length) => `${'a'.repeat(30)}.`.repeat(Math.ceil(length / 31)),
}

/** The least CPU time of five runs of `runs` checks of `text`, in ms. */
function cpuMs(text: string, runs: number): number {
  const times: number[] = []
  for (let round = 0; round < 5; round++) {
    const start = process.cpuUsage()
    for (let run = 0; run < runs; run++) suspectReasons(message({ message: text, name: text }))
    const used = process.cpuUsage(start)
    times.push((used.user + used.system) / 1000)
  }
  return Math.min(...times)
}

describe('signs of spam in a message', () => {
  it('counts links written with a scheme, with www., in BBCode and in HTML', () => {
    expect(suspectReasons(message({}))).toEqual([])
    expect(
      suspectReasons(
        message({ message: 'See https://a.example, www.b.example and [url=x]c[/url] here' }),
      ),
    ).toEqual(['links'])
    expect(suspectReasons(message({ message: '<a href="https://a.example">x</a>' }))).toEqual([
      'onlyLinks',
    ])
    expect(suspectReasons(message({ name: 'Anna foo.http://x.example' }))).toEqual(['linkInName'])
    // Encoded words (RFC 2047) are read decoded: a link in one is a link in the name.
    expect(suspectReasons(message({ name: 'Eve =?UTF-8?Q?www=2Espam=2Eexample?=' }))).toEqual([
      'linkInName',
      'encodedWords',
    ])
    expect(suspectReasons(message({ subject: '=?UTF-8?B?4oCuZmRwLmV4ZQ==?=' }))).toEqual([
      'encodedWords',
    ])
    // Two links and words around them: what a person writes.
    expect(
      suspectReasons(message({ message: 'Our site https://a.example and docs at www.b.example.' })),
    ).toEqual([])
  })

  // The sender chooses the text, so the checks must take time in proportion to its length:
  // four times the text, about four times the time (a pattern that backtracks at every
  // position takes sixteen). A ratio of CPU times, each the least of five runs, so a busy
  // machine slows both sides alike; the times themselves are printed, not asserted.
  it.each(Object.keys(HOSTILE))('reads a hostile text (%s) in linear time', (name) => {
    const make = HOSTILE[name]
    if (!make) throw new Error(name)
    const short = cpuMs(make(5_000), 20)
    const long = cpuMs(make(20_000), 20)
    console.log(
      `${name}: ${(short / 20).toFixed(2)} ms for 5,000 characters, ${(long / 20).toFixed(2)} ms for 20,000`,
    )
    expect(long / Math.max(short, 0.05)).toBeLessThan(8)
  })
})
