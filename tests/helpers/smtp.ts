import { simpleParser, type ParsedMail } from 'mailparser'
import { SMTPServer, type SMTPServerSession } from 'smtp-server'

export type ReceivedMail = {
  raw: string
  mail: ParsedMail
  /** The SMTP envelope: MAIL FROM (empty for a bounce) and RCPT TO. */
  envelopeFrom: string
  envelopeTo: string[]
}

/**
 * A real SMTP server on loopback that records what it receives. It can be stopped and started
 * again on the same port to play an outage, hold its answer to a message (`holdNext`: a
 * message whose client leaves first is not kept), or answer late (`answerAfter`: a slow relay
 * that keeps every message it got, once, whether the client waits for its answer or not).
 */
export async function startSmtpServer(port = 0, host = '127.0.0.1') {
  const received: ReceivedMail[] = []
  let server: SMTPServer | null = null
  let boundPort = port
  /** A test can hold the answer to the next message's data (a slow server), see `holdNext`. */
  let hold: Promise<void> | null = null
  let isHolding = false
  /** How long after a message's data ended the server answers it, see `answerAfter`. */
  let answerDelayMs = 0
  const closedSessions = new Set<string>()

  function record(raw: string, mail: ParsedMail, session: SMTPServerSession) {
    received.push({
      raw,
      mail,
      envelopeFrom: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
      envelopeTo: session.envelope.rcptTo.map((rcpt) => rcpt.address),
    })
  }

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
          if (answerDelayMs > 0) {
            // Kept as its data ends, once: the client may give up on the answer, the message
            // is the relay's all the same (and its retry a second copy).
            const delay = answerDelayMs
            void simpleParser(raw).then((mail) => {
              record(raw, mail, session)
              setTimeout(() => {
                if (!closedSessions.has(session.id)) callback()
              }, delay)
            })
            return
          }
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
              record(raw, mail, session)
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
    /**
     * From now on the end of each message's data is answered `ms` later (0: at once, as by
     * default), as by a slow relay; the message is recorded as its data ends.
     */
    answerAfter(ms: number) {
      answerDelayMs = ms
    },
  }
}
