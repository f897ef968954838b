import { describe, expect, it } from 'vitest'
import { parseWrk } from '#scripts/lib/wrk.ts'

// Output of `wrk -t1 -c4 -d1s --latency` on this project's build machine (Debian's wrk 4.1).
const OK = `Running 1s test @ http://127.0.0.1:3120/home.html
  1 threads and 4 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     2.39ms    1.42ms  18.74ms   93.87%
    Req/Sec     1.70k   176.30     1.98k    72.73%
  Latency Distribution
     50%    2.16ms
     75%    2.69ms
     90%    3.27ms
     99%    8.38ms
  1858 requests in 1.10s, 68.87MB read
Requests/sec:   1689.31
Transfer/sec:     62.62MB
`
const NOT_FOUND = `Running 1s test @ http://127.0.0.1:3120/nothing
  1 threads and 4 connections
  Thread Stats   Avg      Stdev     Max   +/- Stdev
    Latency     1.93ms  620.87us   7.77ms   77.29%
    Req/Sec     2.01k   153.97     2.22k    81.82%
  Latency Distribution
     50%  850.00us
     75%    2.21ms
     90%    2.62ms
     99%    1.02s
  2198 requests in 1.10s, 1.09MB read
  Socket errors: connect 0, read 3, write 1, timeout 2
  Non-2xx or 3xx responses: 2198
Requests/sec:   1999.58
Transfer/sec:      0.99MB
`

describe('reading wrk', () => {
  it('takes requests, rate and percentiles from a clean run', () => {
    expect(parseWrk(OK)).toEqual({
      requests: 1858,
      rps: 1689.31,
      p50: 2.16,
      p99: 8.38,
      non2xx3xx: 0,
      socketErrors: 0,
    })
  })

  it('converts microseconds and seconds, and counts errors and other statuses', () => {
    expect(parseWrk(NOT_FOUND)).toEqual({
      requests: 2198,
      rps: 1999.58,
      p50: 0.85,
      p99: 1020,
      non2xx3xx: 2198,
      socketErrors: 6,
    })
  })

  it('refuses output it cannot read', () => {
    expect(() => parseWrk('unable to connect to 127.0.0.1:1 Connection refused')).toThrow(/wrk/)
  })
})
