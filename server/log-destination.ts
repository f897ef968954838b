import { destination, type DestinationStream } from 'pino'

/** Log lines are written once this much is buffered, or once a second, whichever is first. */
const BUFFER_BYTES = 4096
const FLUSH_INTERVAL_MS = 1000

let stream: (DestinationStream & { flushSync: () => void; flush: () => void }) | undefined

/**
 * Standard output for the process's JSON log lines, asynchronous and buffered: a write per
 * line would cost a busy server a quarter of its throughput (README, Operations). Lines reach
 * the output within a second; on exit, however the process ends, the buffer is written out
 * synchronously first, so no line is lost.
 */
export function logDestination(): DestinationStream {
  if (stream) return stream
  const created = destination({ dest: 1, sync: false, minLength: BUFFER_BYTES })
  setInterval(() => created.flush(), FLUSH_INTERVAL_MS).unref()
  process.once('exit', () => {
    try {
      created.flushSync()
    } catch {
      // Standard output closed: nothing left to write to.
    }
  })
  stream = created
  return created
}
