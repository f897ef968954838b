import type { FastifyInstance } from 'fastify'
import { simpleParser } from 'mailparser'
import { GenericContainer, type StartedTestContainer } from 'testcontainers'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import { withToken } from '#tests/helpers/form-token.ts'

/**
 * The delivery test against a mail catcher in a container (testcontainers), built locally by
 * tests/containers/engine.sh. `.ci/run` prepares the engine (podman's Docker API); without
 * one the test says why it does not run.
 */
const image = process.env.TEST_SMTP_SINK_IMAGE
const hasEngine = Boolean(process.env.DOCKER_HOST && image)
if (!hasEngine) {
  console.warn(
    'Skipping the containerised mail test: no container engine (run `source tests/containers/engine.sh` first, as .ci/run does)',
  )
}

type Caught = { to: string[]; raw: string }

describe.skipIf(!hasEngine)('delivery to a containerised mail catcher', () => {
  let container: StartedTestContainer
  let app: FastifyInstance
  let api = ''

  beforeAll(async () => {
    container = await new GenericContainer(image ?? '')
      .withExposedPorts(1025, 8025)
      // What a cleanup of this run removes if the suite dies first (tests/containers/engine.sh).
      .withLabels({ 'modernwerk.containers-run': process.env.CONTAINERS_RUN ?? 'local' })
      .start()
    const host = container.getHost()
    api = `http://${host}:${container.getMappedPort(8025)}/messages`
    app = await buildTestApp(
      {
        SMTP_URL: `smtp://${host}:${container.getMappedPort(1025)}`,
        MAIL_TO: 'leads@modernwerk.example',
        CONTACT_RATE_MAX: '100',
      },
      { deliveryPollMs: 100, firstRetryMs: 100 },
    )
    // A container's start (and its ports' readiness) slows down most on a busy machine.
  }, 120_000)

  afterAll(async () => {
    await app.close()
    await container.stop()
  })

  it('delivers a German message with the right headers', { timeout: 60_000 }, async () => {
    const response = await app.inject({
      method: 'POST',
      url: '/api/contact',
      payload: await withToken({
        name: 'Grete Müller',
        email: 'grete@example.de',
        service: 'security',
        subject: 'Sicherheitsanalyse für unser Büro',
        message: 'Wir möchten vor der ISO-27001-Zertifizierung eine Bestandsaufnahme.',
        locale: 'de',
      }),
    })
    expect(response.statusCode).toBe(202)
    let caught: Caught[] = []
    const started = Date.now()
    // Returns at the first message; the bound is for a machine busy with other jobs.
    while (caught.length === 0 && Date.now() - started < 30_000) {
      await new Promise((resolve) => setTimeout(resolve, 100))
      caught = (await (await fetch(api)).json()) as Caught[]
    }
    expect(caught).toHaveLength(1)
    const [message] = caught as [Caught]
    expect(message.to).toEqual(['leads@modernwerk.example'])
    const mail = await simpleParser(message.raw)
    expect(mail.subject).toBe('[Website] Kontaktanfrage: Sicherheitsanalyse für unser Büro')
    expect(mail.replyTo?.value[0]).toMatchObject({
      name: 'Grete Müller',
      address: 'grete@example.de',
    })
    expect(mail.text).toContain('Bestandsaufnahme')
  })
})
