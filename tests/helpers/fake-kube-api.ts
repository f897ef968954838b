import { once } from 'node:events'
import { writeFileSync } from 'node:fs'
import { createServer } from 'node:http'
import type { AddressInfo } from 'node:net'
import { join } from 'node:path'

/**
 * The few answers of a Kubernetes API server that Helm's `lookup` asks for (no cluster runs
 * here): the API's version and discovery of the kinds the chart looks up, and the objects
 * given, in one namespace. Enough for `helm template --dry-run=server`, which renders as an
 * upgrade against a cluster would; everything else is 404.
 */
export type KubeObject = {
  apiVersion: string
  kind: string
  metadata: { name: string; namespace?: string }
  [field: string]: unknown
}

const RESOURCES: Record<string, { name: string; kind: string }[]> = {
  v1: [
    { name: 'secrets', kind: 'Secret' },
    { name: 'persistentvolumeclaims', kind: 'PersistentVolumeClaim' },
  ],
  'apps/v1': [{ name: 'statefulsets', kind: 'StatefulSet' }],
}

export async function startFakeKubeApi(dir: string, namespace = 'default') {
  const objects = new Map<string, KubeObject>()
  const path = (apiVersion: string, kind: string, name: string) => {
    const resource = RESOURCES[apiVersion]?.find((entry) => entry.kind === kind)?.name
    const base = apiVersion === 'v1' ? '/api/v1' : `/apis/${apiVersion}`
    return `${base}/namespaces/${namespace}/${resource}/${name}`
  }
  const server = createServer((request, response) => {
    const send = (code: number, body: unknown) => {
      response.writeHead(code, { 'content-type': 'application/json' })
      response.end(JSON.stringify(body))
    }
    const url = (request.url ?? '').split('?')[0] ?? ''
    if (url === '/version') return send(200, { major: '1', minor: '30', gitVersion: 'v1.30.0' })
    if (url === '/api') return send(200, { kind: 'APIVersions', versions: ['v1'] })
    if (url === '/apis') {
      return send(200, {
        kind: 'APIGroupList',
        apiVersion: 'v1',
        groups: [
          {
            name: 'apps',
            versions: [{ groupVersion: 'apps/v1', version: 'v1' }],
            preferredVersion: { groupVersion: 'apps/v1', version: 'v1' },
          },
        ],
      })
    }
    for (const [groupVersion, resources] of Object.entries(RESOURCES)) {
      const base = groupVersion === 'v1' ? '/api/v1' : `/apis/${groupVersion}`
      if (url === base) {
        return send(200, {
          kind: 'APIResourceList',
          groupVersion,
          resources: resources.map(({ name, kind }) => ({
            name,
            singularName: kind.toLowerCase(),
            namespaced: true,
            kind,
            verbs: ['get', 'list'],
          })),
        })
      }
    }
    const object = objects.get(url)
    if (object) return send(200, object)
    send(404, {
      kind: 'Status',
      apiVersion: 'v1',
      status: 'Failure',
      reason: 'NotFound',
      code: 404,
    })
  })
  server.listen(0, '127.0.0.1')
  await once(server, 'listening')
  const { port } = server.address() as AddressInfo
  const kubeconfig = join(dir, 'kubeconfig')
  writeFileSync(
    kubeconfig,
    [
      'apiVersion: v1',
      'kind: Config',
      `clusters: [{name: fake, cluster: {server: "http://127.0.0.1:${port}"}}]`,
      `contexts: [{name: fake, context: {cluster: fake, namespace: ${namespace}}}]`,
      'current-context: fake',
      'users: [{name: fake, user: {}}]',
      '',
    ].join('\n'),
    { mode: 0o600 },
  )
  return {
    kubeconfig,
    /** Serves an object as the cluster's (what an earlier install created). */
    put(object: KubeObject) {
      objects.set(path(object.apiVersion, object.kind, object.metadata.name), object)
    },
    async stop() {
      server.close()
      await once(server, 'close')
    },
  }
}
