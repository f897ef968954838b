import { once } from 'node:events'
import { createServer, type AddressInfo } from 'node:net'
import type { FastifyInstance } from 'fastify'
import { afterEach, describe, expect, it } from 'vitest'
import { buildTestApp } from '#tests/helpers/build-test-app.ts'
import { freePort } from '#tests/helpers/net.ts'

// Where /metrics is served and to whom (docs/operations.md#operations). The process opening the
// port and its message when it cannot: tests/server/main.test.ts.
const apps: FastifyInstance[] = []
async function appWith(env: Record<string, string>) {
  const app = await buildTestApp(env)
  apps.push(app)
  return app
}

afterEach(async () => {
  await Promise.all(apps.splice(0).map((app) => app.close()))
})

describe('/metrics', () => {
  it('has a port of its own by default: the site answers it with 404', async () => {
    // An empty variable is unset: the default, as `npm start` and the image run it.
    const app = await appWith({ METRICS_PORT: '' })
    expect(app.metricsListener?.port).toBe(9464)
    const onSite = await app.inject({ url: '/metrics' })
    expect(onSite.statusCode).toBe(404)
    expect(onSite.body).not.toContain('app_build_info')
  })

  it('answers loopback on its own port, and nothing else there', async () => {
    const port = await freePort()
    const app = await appWith({ METRICS_PORT: String(port), HOST: '127.0.0.1' })
    await app.metricsListener?.listen()
    const metrics = await fetch(`http://127.0.0.1:${port}/metrics`)
    expect(metrics.status).toBe(200)
    expect(metrics.headers.get('cache-control')).toBe('no-store')
    expect(await metrics.text()).toContain('app_build_info{build_id=')
    expect((await fetch(`http://127.0.0.1:${port}/`)).status).toBe(404)
    expect((await app.inject({ url: '/metrics' })).statusCode).toBe(404)
  })

  it("checks METRICS_ALLOW against the connection's address on its own port, never a forwarded one", async () => {
    const port = await freePort()
    // Loopback left out, and loopback trusted as a proxy: the header must not count here.
    const app = await appWith({
      METRICS_PORT: String(port),
      HOST: '127.0.0.1',
      METRICS_ALLOW: '10.0.0.0/8',
      TRUST_PROXY: 'loopback',
    })
    await app.metricsListener?.listen()
    const refused = await fetch(`http://127.0.0.1:${port}/metrics`, {
      headers: { 'x-forwarded-for': '10.1.2.3' },
    })
    expect(refused.status).toBe(404)
    expect(await refused.text()).not.toContain('app_build_info')
  })

  it('with METRICS_PORT equal to PORT is served on the site port, to private addresses only by default', async () => {
    const app = await appWith({})
    expect(app.metricsListener).toBeNull()
    await app.listen({ port: 0, host: '127.0.0.1' })
    const { port } = app.server.address() as AddressInfo
    const metrics = await fetch(`http://127.0.0.1:${port}/metrics`)
    expect(metrics.status).toBe(200)
    expect(await metrics.text()).toContain('app_build_info{build_id=')
    const from = async (remoteAddress: string) =>
      (await app.inject({ url: '/metrics', remoteAddress })).statusCode
    expect(await from('10.4.5.6')).toBe(200)
    expect(await from('fd00::7')).toBe(200)
    expect(await from('203.0.113.9')).toBe(404)
    expect(await from('2001:db8::1')).toBe(404)
  })

  it('rejects with EADDRINUSE when its port is taken', async () => {
    const taken = createServer().listen(0, '127.0.0.1')
    await once(taken, 'listening')
    try {
      const { port } = taken.address() as AddressInfo
      const app = await appWith({ METRICS_PORT: String(port), HOST: '127.0.0.1' })
      await expect(app.metricsListener?.listen()).rejects.toMatchObject({ code: 'EADDRINUSE' })
    } finally {
      taken.close()
    }
  })
})
