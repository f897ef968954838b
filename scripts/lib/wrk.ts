// wrk (Debian's `wrk` package) as the bench's load generator: written in C with an event loop
// per thread, it drives several times what a Node load generator does on the same cores, so
// the bench measures the servers, not itself.
import { execFile, execFileSync } from 'node:child_process'
import { promisify } from 'node:util'

const run = promisify(execFile)

export type WrkResult = {
  requests: number
  rps: number
  /** Milliseconds. */
  p50: number
  p99: number
  /** Answers with a status outside 2xx and 3xx. */
  non2xx3xx: number
  /** Connect, read, write and timeout errors. */
  socketErrors: number
}

/** `1.23ms`, `850.00us`, `1.20s` → milliseconds. */
function milliseconds(value: string): number {
  const match = /^([\d.]+)(us|ms|s)$/.exec(value)
  if (!match) throw new Error(`wrk: unreadable latency ${value}`)
  const number = Number(match[1])
  return match[2] === 'us' ? number / 1000 : match[2] === 's' ? number * 1000 : number
}

/** The figures of `wrk --latency` output. */
export function parseWrk(output: string): WrkResult {
  const field = (pattern: RegExp) => {
    const value = pattern.exec(output)?.[1]
    if (value === undefined) throw new Error(`wrk: no ${pattern.source} in\n${output}`)
    return value
  }
  const errors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output)
  return {
    requests: Number(field(/(\d+) requests in /)),
    rps: Number(field(/Requests\/sec:\s+([\d.]+)/)),
    p50: milliseconds(field(/\s50%\s+([\d.]+\w+)/)),
    p99: milliseconds(field(/\s99%\s+([\d.]+\w+)/)),
    non2xx3xx: Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0),
    socketErrors: errors ? errors.slice(1).reduce((sum, count) => sum + Number(count), 0) : 0,
  }
}

function has(command: string): boolean {
  try {
    execFileSync('which', [command], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}

export const HAS_WRK = has('wrk')
/** With taskset, the load generator gets core 1 and the server under test core 0. */
export const HAS_TASKSET = has('taskset')

/** A command pinned to one core when taskset is there: `[command, args]`. */
function pinned(core: number, command: string, args: string[]): [string, string[]] {
  return HAS_TASKSET ? ['taskset', ['-c', String(core), command, ...args]] : [command, args]
}

export async function runWrk(
  url: string,
  options: { connections: number; seconds: number; headers?: Record<string, string> },
): Promise<WrkResult> {
  const [command, args] = pinned(1, 'wrk', [
    '-t1',
    `-c${options.connections}`,
    `-d${options.seconds}s`,
    '--latency',
    ...Object.entries(options.headers ?? {}).flatMap(([name, value]) => [
      '-H',
      `${name}: ${value}`,
    ]),
    url,
  ])
  const { stdout } = await run(command, args, { maxBuffer: 1024 * 1024 })
  return parseWrk(stdout)
}
