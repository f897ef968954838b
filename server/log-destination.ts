import { destination, type DestinationStream } from 'pino'

/** Lines are handed to the output in blocks of about this many characters… */
const BLOCK_CHARS = 8192
/** …or once a second, whichever comes first. */
const FLUSH_INTERVAL_MS = 1000

type Output = ReturnType<typeof destination>

/**
 * Collects log lines and passes them on as one string per block. pino's own buffering
 * (sonic-boom's `minLength`) appends every line to the pending text and measures its UTF-8
 * length again, so each line costs time in proportion to what is already waiting; here a line
 * costs an array push, and the output sees one write per block
 * (docs/decisions/a-cached-page-pays-for-nothing.md).
 */
class LineBlocks implements DestinationStream {
  #lines: string[] = []
  #chars = 0
  readonly #output: Output

  constructor(output: Output) {
    this.#output = output
  }

  write(line: string): void {
    this.#lines.push(line)
    this.#chars += line.length
    if (this.#chars >= BLOCK_CHARS) this.flush()
  }

  /** Writes what is collected as one block. */
  flush(): void {
    if (this.#lines.length === 0) return
    const block = this.#lines.join('')
    this.#lines = []
    this.#chars = 0
    this.#output.write(block)
  }

  /** Writes everything out before returning (on exit). */
  flushSync(): void {
    this.flush()
    this.#output.flushSync()
  }
}

let stream: LineBlocks | undefined

/**
 * Standard output for the process's JSON log lines, in blocks: a write per line would be a
 * system call per request (docs/performance.md#measured-quality). A block is written with one
 * synchronous write, which costs the event loop less than handing it to the thread pool
 * (measured: 1 % of a busy server's time against 3 %) and can only wait when the container
 * runtime stops reading the output. Lines reach the output within a second; on exit, however
 * the process ends, what is pending is written out first, so no line is lost. The app keeps no
 * log of its own: the platform collects and keeps what it writes here
 * (docs/decisions/logs-are-kept-by-the-platform.md).
 */
export function logDestination(): DestinationStream {
  if (stream) return stream
  const created = new LineBlocks(destination({ dest: 1, sync: true }))
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
