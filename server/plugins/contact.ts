import { randomUUID } from 'node:crypto'
import { resolve } from 'node:path'
import fp from 'fastify-plugin'
import nodemailer from 'nodemailer'
import { Counter, Gauge, type Registry } from 'prom-client'
import type { ContactMessage } from '#shared/contact.ts'
import { startDeliveryWorker } from '../services/delivery.ts'
import { contactMail } from '../services/mail.ts'
import { FileOutbox, type OutboxEntry } from '../services/outbox.ts'

declare module 'fastify' {
  interface FastifyInstance {
    contact: {
      /** Stores the message durably; resolves with its id only once it is on disk. */
      accept: (message: ContactMessage) => Promise<string>
      /** Counts a submission the honeypot caught (answered like a success). */
      rejectSpam: () => string
      /** Counts a submission that was refused. */
      count: (outcome: 'invalid' | 'rateLimited' | 'error') => void
      outbox: FileOutbox
    }
  }
}

export type ContactPluginOptions = {
  metrics: Registry
  /** Test knobs: how often the worker looks at the outbox, and the first retry delay. */
  pollMs?: number
  firstRetryMs?: number
}

/**
 * Contact messages: accepted into the durable outbox, delivered by a worker over SMTP
 * (nodemailer, `SMTP_URL`). Without `SMTP_URL` messages stay in the outbox and the log says
 * where. The worker stops cleanly when the app closes.
 */
export const contactPlugin = fp<ContactPluginOptions>(
  async (app, { metrics, pollMs, firstRetryMs }) => {
    const { config } = app
    const outbox = new FileOutbox(resolve(config.OUTBOX_DIR))
    try {
      await outbox.init()
    } catch (error) {
      // Start anyway: readiness reports the problem and the form answers with an error.
      app.log.error({ err: error, dir: outbox.dir }, 'outbox folder cannot be created')
    }

    const submissions = new Counter({
      name: 'contact_submissions_total',
      help: 'Contact form submissions by outcome',
      labelNames: ['outcome'] as const,
      registers: [metrics],
    })
    const deliveries = new Counter({
      name: 'contact_deliveries_total',
      help: 'Delivery attempts of contact messages by result',
      labelNames: ['result'] as const,
      registers: [metrics],
    })
    new Gauge({
      name: 'contact_outbox_depth',
      help: 'Contact messages waiting in the outbox',
      registers: [metrics],
      async collect() {
        this.set(await outbox.size().catch(() => 0))
      },
    })

    let kick = () => {}
    if (config.SMTP_URL) {
      const transport = nodemailer.createTransport(config.SMTP_URL)
      const settings = { from: config.MAIL_FROM, to: config.MAIL_TO }
      const worker = startDeliveryWorker({
        outbox,
        pollMs,
        firstRetryMs,
        log: app.log,
        counters: {
          delivered: () => deliveries.inc({ result: 'delivered' }),
          failed: () => deliveries.inc({ result: 'failed' }),
        },
        send: async (entry: OutboxEntry) => {
          const { locale, service } = entry.message
          const t = app.i18n.getFixedT(locale, 'mail')
          const serviceLabel = app.i18n.getFixedT(locale, 'common')(`form.options.${service}`)
          await transport.sendMail(contactMail(entry, settings, t, serviceLabel))
        },
      })
      kick = worker.kick
      app.addHook('onClose', async () => {
        await worker.stop()
        transport.close()
      })
    } else {
      app.log.warn(
        { dir: outbox.dir },
        'SMTP_URL is not set: contact messages are kept in the outbox folder and not sent',
      )
    }

    app.decorate('contact', {
      outbox,
      async accept(message: ContactMessage) {
        const id = randomUUID()
        await outbox.put({
          id,
          receivedAt: new Date().toISOString(),
          attempts: 0,
          nextAttemptAt: 0,
          message,
        })
        submissions.inc({ outcome: 'accepted' })
        kick()
        return id
      },
      rejectSpam() {
        submissions.inc({ outcome: 'spam' })
        return randomUUID()
      },
      count(outcome) {
        submissions.inc({ outcome })
      },
    })
  },
  { name: 'contact', dependencies: ['i18n'] },
)
