import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer } from 'smtp-server'

export type ReceivedMail = {
  raw: string
  mail: ParsedMail
  /** The SMTP envelope: MAIL FROM (empty for a bounce) and RCPT TO. */
  envelopeFrom: string
  envelopeTo: string[]
}

/**
 * A real SMTP server on loopback that records what it receives. It can be stopped and started
 * again on the same port to play an outage.
 */
export async function startSmtpServer(port = 0, host = '127.0.0.1') {
  const received: ReceivedMail[] = []
  let server: SMTPServer | null = null
  let boundPort = port
  /** A test can hold the answer to the next message's data (a slow server), see `holdNext`. */
  let hold: Promise<void> | null = null
  let isHolding = false
  const closedSessions = new Set<string>()

  async function start() {
    server = new SMTPServer({
      authOptional: true,
      disabledCommands: ['STARTTLS'],
      logger: false,
      onClose(session) {
        closedSessions.add(session.id)
      },
      onData(stream, session, callback) {
        const chunks: Buffer[] = []
        stream.on('data', (chunk: Buffer) => chunks.push(chunk))
        stream.on('end', () => {
          const raw = Buffer.concat(chunks).toString('utf8')
          const waiting = hold
          hold = null
          isHolding = waiting !== null
          void (waiting ?? Promise.resolve())
            .then(() => {
              isHolding = false
              return simpleParser(raw)
            })
            .then((mail) => {
              // A client gone before the answer: the transaction never completed, nothing kept.
              if (closedSessions.has(session.id)) return
              received.push({
                raw,
                mail,
                envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
                envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
              })
              callback()
            })
        })
      },
    })
    await new Promise<void>((resolve, reject) => {
      server?.once('error', reject)
      server?.listen(boundPort, host, () => resolve())
    })
    const address = server.server.address()
    if (address && typeof address === 'object') boundPort = address.port
  }

  async function stop() {
    const current = server
    server = null
    if (current) await new Promise<void>((resolve) => current.close(() => resolve()))
  }

  await start()
  return {
    received,
    get url() {
      return `smtp://${host}:${boundPort}`
    },
    start,
    stop,
    /** The answer to the next message's data waits for `until` (a slow or stuck server). */
    holdNext(until: Promise<void>) {
      hold = until
    },
    /** Whether a message's data arrived and its answer is being held. */
    isHolding: () => isHolding,
  }
}
