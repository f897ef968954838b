// A mail catcher for tests: accepts SMTP on 1025 and lists what it received as JSON on
// http://…:8025/messages. Raw messages only; the tests parse them.
import { createServer } from 'node:http'
import { SMTPServer } from 'smtp-server'

const messages = []

new SMTPServer({
  authOptional: true,
  disabledCommands: ['STARTTLS'],
  logger: false,
  onData(stream, session, callback) {
    const chunks = []
    stream.on('data', (chunk) => chunks.push(chunk))
    stream.on('end', () => {
      messages.push({
        to: session.envelope.rcptTo.map((rcpt) => rcpt.address),
        raw: Buffer.concat(chunks).toString('utf8'),
      })
      callback()
    })
  },
}).listen(1025, '0.0.0.0')

createServer((request, response) => {
  response.setHeader('Content-Type', 'application/json')
  response.end(JSON.stringify(request.url === '/messages' ? messages : { ok: true }))
}).listen(8025, '0.0.0.0')

process.on('SIGTERM', () => process.exit(0))
