import { execFile, spawn } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { promisify } from 'node:util'
import {
  HTTPRoute,
  type IHTTPRoute,
} from '@kubernetes-models/gateway-api/gateway.networking.k8s.io/v1'
import { Redis } from 'ioredis'
import ts from 'typescript'
import { afterAll, describe, expect, it, vi } from 'vitest'
import { parse, parseAllDocuments } from 'yaml'
import { ConfigSchema, loadConfig } from '#server/config.ts'
import { addressMatcher } from '#server/lib/ip-addresses.ts'
import { dkimSigning } from '#server/services/contact/dkim.ts'
import { SMTP_TIMEOUTS } from '#server/services/contact/sender.ts'
import { dkimKeyPair } from '#tests/helpers/dkim.ts'
import { startFakeKubeApi } from '#tests/helpers/fake-kube-api.ts'
import { helm, helmBinary } from '#tests/helpers/helm.ts'
import { freePort } from '#tests/helpers/net.ts'
import { hasRedisServer, REDIS_SERVER } from '#tests/helpers/redis.ts'

const execFileAsync = promisify(execFile)
const ROOT = join(import.meta.dirname, '..', '..')
const CHART = join(ROOT, 'helm')
const VALUE_SETS = [
  'defaults',
  ...readdirSync(join(CHART, 'ci')).filter((name) => name.endsWith('.yaml')),
]

type Manifest = {
  apiVersion: string
  kind: string
  metadata: { name: string; labels?: Record<string, string>; annotations?: Record<string, string> }
  spec?: Record<string, unknown>
}
type Probe = {
  httpGet?: { path: string; port: string | number }
  tcpSocket?: { port: string | number }
  exec?: { command: string[] }
}
type EnvVar = {
  name: string
  value?: string
  valueFrom?: { secretKeyRef?: { name: string; key: string; optional?: boolean } }
}
type Container = {
  name: string
  command?: string[]
  args?: string[]
  env?: EnvVar[]
  securityContext?: Record<string, unknown>
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> }
  livenessProbe?: Probe
  readinessProbe?: Probe
  startupProbe?: Probe
  ports?: { containerPort: number; name?: string }[]
  volumeMounts?: { name: string; mountPath: string; readOnly?: boolean }[]
}
type Volume = {
  name: string
  secret?: { secretName: string; defaultMode?: number; items?: { key: string; path: string }[] }
}
type PodSpec = {
  securityContext?: Record<string, unknown>
  volumes?: Volume[]
  containers: Container[]
  initContainers?: Container[]
  terminationGracePeriodSeconds?: number
  automountServiceAccountToken?: boolean
}
type LabelSelector = { matchLabels?: Record<string, string> }
type NetworkPolicyPeer = { podSelector?: LabelSelector; namespaceSelector?: LabelSelector }
type NetworkPolicyRule = {
  to?: NetworkPolicyPeer[]
  from?: NetworkPolicyPeer[]
  ports?: { port: number | string; protocol?: string }[]
}

/** An Ingress as an install enables it: with the proxies' range it needs (refused without). */
const WITH_INGRESS = ['--set', 'ingress.enabled=true', '--set', 'config.TRUST_PROXY=10.244.0.0/16']

const binary = helmBinary()
if (!binary)
  console.warn('Skipping the Helm chart checks: no helm binary could be had from the npm registry')

function template(valueSet: string, extra: string[] = []) {
  const values = valueSet === 'defaults' ? [] : ['-f', join(CHART, 'ci', valueSet)]
  return helm(binary ?? 'helm', [
    'template',
    'site',
    CHART,
    '--kube-version',
    '1.30.0',
    ...values,
    ...extra,
  ])
}

function render(valueSet: string, extra: string[] = []) {
  const result = template(valueSet, extra)
  if (result.status !== 0) throw new Error(result.stderr)
  return parseAllDocuments(result.stdout)
    .map((document) => document.toJS() as Manifest | null)
    .filter((manifest): manifest is Manifest => manifest !== null)
}

/** The rendered objects as TypeScript literals typed by kubernetes-types: unknown fields and wrong types fail. */
function typeErrors(manifests: Manifest[]): string[] {
  const source = manifests
    .map((manifest, index) => {
      const [group, version] = manifest.apiVersion.includes('/')
        ? (manifest.apiVersion.split('/') as [string, string])
        : ['core', manifest.apiVersion]
      // CRDs, not in kubernetes-types: the Gateway API's are checked against its schema.
      if (group === 'monitoring.coreos.com' || group === 'gateway.networking.k8s.io') return ''
      const module = `kubernetes-types/${group.split('.')[0]}/${version}.js`
      return `import type { ${manifest.kind} as T${index} } from '${module}'\nexport const m${index}: T${index} = ${JSON.stringify(manifest)}\n`
    })
    .join('')
  const dir = mkdtempSync(join(ROOT, '.k8s-check-'))
  try {
    const file = join(dir, 'manifests.ts')
    writeFileSync(file, source)
    const program = ts.createProgram([file], {
      strict: true,
      noEmit: true,
      skipLibCheck: true,
      module: ts.ModuleKind.NodeNext,
      moduleResolution: ts.ModuleResolutionKind.NodeNext,
    })
    return ts
      .getPreEmitDiagnostics(program)
      .map((diagnostic) => ts.flattenDiagnosticMessageText(diagnostic.messageText, ' '))
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The Gateway API's resources that break its published schema (@kubernetes-models/gateway-api). */
function gatewayApiErrors(manifests: Manifest[]): string[] {
  return manifests
    .filter(({ apiVersion }) => apiVersion.startsWith('gateway.networking.k8s.io/'))
    .flatMap((manifest) => {
      if (manifest.apiVersion !== 'gateway.networking.k8s.io/v1' || manifest.kind !== 'HTTPRoute') {
        return [`${manifest.apiVersion} ${manifest.kind}: not a kind the chart makes`]
      }
      try {
        new HTTPRoute(manifest as unknown as IHTTPRoute).validate()
        return []
      } catch (error) {
        return [`HTTPRoute ${manifest.metadata.name}: ${(error as Error).message}`]
      }
    })
}

/** The pods of every workload (Deployment, StatefulSet, ...: anything with a pod template) and bare Pods. */
function podSpecs(manifests: Manifest[]): [string, PodSpec][] {
  return manifests.flatMap((manifest): [string, PodSpec][] => {
    const name = `${manifest.kind}/${manifest.metadata.name}`
    if (manifest.kind === 'Pod') return [[name, manifest.spec as unknown as PodSpec]]
    const template = (manifest.spec as { template?: { spec?: PodSpec } } | undefined)?.template
    return template?.spec ? [[name, template.spec]] : []
  })
}

function find(manifests: Manifest[], kind: string, name: string): Manifest {
  const manifest = manifests.find((m) => m.kind === kind && m.metadata.name === name)
  if (!manifest) throw new Error(`no ${kind}/${name} in ${manifests.map((m) => m.kind).join(', ')}`)
  return manifest
}

function podSpec(manifests: Manifest[], kind: string, name: string): PodSpec {
  return (find(manifests, kind, name).spec as { template: { spec: PodSpec } }).template.spec
}

function env(container: Container | undefined, name: string): EnvVar | undefined {
  return container?.env?.find((variable) => variable.name === name)
}

/** Does a NetworkPolicy peer's podSelector select pods with these labels? */
function selects(peer: NetworkPolicyPeer, labels: Record<string, string>): boolean {
  const matchLabels = peer.podSelector?.matchLabels
  return (
    matchLabels !== undefined &&
    peer.namespaceSelector === undefined &&
    Object.entries(matchLabels).every(([key, value]) => labels[key] === value)
  )
}

/**
 * A DKIM key in a file, as the chart's mount gives the pod one (`DKIM_PRIVATE_KEY_FILE`): made
 * once per run, never a key kept in the repository.
 */
let dkimKeyMade: { pem: string; file: string } | undefined
function dkimKey() {
  if (dkimKeyMade) return dkimKeyMade
  const dir = mkdtempSync(join(tmpdir(), 'chart-dkim-'))
  dkimKeyMade = { pem: dkimKeyPair().privateKeyPem, file: join(dir, 'private.pem') }
  writeFileSync(dkimKeyMade.file, dkimKeyMade.pem)
  return dkimKeyMade
}
afterAll(() => {
  if (dkimKeyMade) rmSync(dirname(dkimKeyMade.file), { recursive: true, force: true })
})

const FULLNAME = 'site-modernization-partners-web'
/**
 * The per-Ingress switches that turn the entry proxy's own access log off (`ingress.accessLog:
 * disabled`), as the controllers document them: ingress-nginx (and Traefik's ingress-nginx
 * provider) and Traefik's Kubernetes Ingress provider. Literal here, not read from the chart.
 */
const ACCESS_LOG_OFF = {
  'nginx.ingress.kubernetes.io/enable-access-log': 'false',
  'traefik.ingress.kubernetes.io/router.observability.accesslogs': 'false',
}
const REDIS = `${FULLNAME}-redis`
/**
 * Velero's documented switches (helm/README.md, "Backups and snapshots"): the label that leaves
 * an object out of every backup, and the pod annotation that opts volumes out of file-system
 * backup. Literal here, not read from the chart.
 */
const VELERO_EXCLUDE_LABEL = 'velero.io/exclude-from-backup'
const VELERO_FS_BACKUP_EXCLUDES = 'backup.velero.io/backup-volumes-excludes'

describe.skipIf(!binary)('Helm chart', () => {
  it.each(VALUE_SETS)('%s passes helm lint --strict', (valueSet) => {
    const values = valueSet === 'defaults' ? [] : ['-f', join(CHART, 'ci', valueSet)]
    const result = helm(binary ?? 'helm', ['lint', '--strict', CHART, ...values])
    expect(result.stderr + result.stdout).toContain('1 chart(s) linted, 0 chart(s) failed')
    expect(result.status).toBe(0)
  })

  it.each(VALUE_SETS)('%s renders typed manifests meeting PodSecurity restricted', (valueSet) => {
    const manifests = render(valueSet)
    expect(typeErrors(manifests)).toEqual([])
    expect(gatewayApiErrors(manifests)).toEqual([])
    const kinds = manifests.map((manifest) => manifest.kind)
    expect(kinds).toEqual(expect.arrayContaining(['Deployment', 'Service', 'ConfigMap']))
    for (const [name, pod] of podSpecs(manifests)) {
      expect(pod.securityContext, name).toMatchObject({
        runAsNonRoot: true,
        seccompProfile: { type: 'RuntimeDefault' },
      })
      expect(pod.automountServiceAccountToken, name).toBe(false)
      for (const container of [...pod.containers, ...(pod.initContainers ?? [])]) {
        expect(container.securityContext, `${name} ${container.name}`).toMatchObject({
          allowPrivilegeEscalation: false,
          readOnlyRootFilesystem: true,
          capabilities: { drop: ['ALL'] },
        })
        expect(container.securityContext?.privileged ?? false).toBe(false)
      }
      if (name.startsWith('Pod/')) continue // the `helm test` pod runs once
      for (const container of pod.containers) {
        const label = `${name} ${container.name}`
        expect(container.livenessProbe, label).toBeDefined()
        expect(container.readinessProbe, label).toBeDefined()
        expect(container.resources?.requests?.cpu, label).toBeTruthy()
        expect(container.resources?.limits?.memory, label).toBeTruthy()
      }
    }
    const deployment = podSpec(manifests, 'Deployment', FULLNAME)
    const app = deployment.containers[0]
    expect(app?.livenessProbe?.httpGet?.path).toBe('/healthz')
    expect(app?.readinessProbe?.httpGet?.path).toBe('/readyz')
    expect(app?.startupProbe?.httpGet?.path).toBe('/healthz')
    expect(app?.ports?.[0]?.containerPort).toBe(3000)
    expect(app?.resources?.requests?.cpu).toBeTruthy()
    expect(app?.resources?.limits?.memory).toBeTruthy()
    expect(deployment.terminationGracePeriodSeconds).toBeGreaterThan(20)
    for (const manifest of manifests) {
      const ports = JSON.stringify(manifest).match(/"(containerPort|port|targetPort)":(\d+)/g) ?? []
      for (const port of ports) {
        const value = Number(port.split(':')[1])
        expect(value).toBeGreaterThan(0)
        expect(value).toBeLessThan(65_536)
      }
    }
  })

  it.each(VALUE_SETS)('%s: the ConfigMap holds variables the app knows, valid', (valueSet) => {
    const { data } = find(render(valueSet), 'ConfigMap', FULLNAME) as Manifest & {
      data?: Record<string, string>
    }
    const known = Object.keys(ConfigSchema.shape)
    for (const name of Object.keys(data ?? {})) expect(known, name).toContain(name)
    // The variables the Deployment sets beside them are the chart's own (port, outbox, …;
    // with DKIM the file its Secret mount holds).
    const dkim = data?.DKIM_DOMAIN ? { DKIM_PRIVATE_KEY_FILE: dkimKey().file } : {}
    expect(() => loadConfig({ ...data, PORT: '3000', METRICS_PORT: '9090', ...dkim })).not.toThrow()
  })

  it.each(VALUE_SETS)(
    '%s: METRICS_ALLOW is explicit: config.METRICS_ALLOW, else whoever reaches metrics.port',
    (valueSet) => {
      const { data } = find(render(valueSet), 'ConfigMap', FULLNAME) as Manifest & {
        data?: Record<string, string>
      }
      const values = (
        valueSet === 'defaults' ? {} : parse(readFileSync(join(CHART, 'ci', valueSet), 'utf8'))
      ) as { config?: { METRICS_ALLOW?: string } }
      const configured = values.config?.METRICS_ALLOW
      // Not the app's default (loopback and private ranges): pod networks outside them, IPv6
      // global unicast or 100.64.0.0/10, must still be scraped.
      expect(data?.METRICS_ALLOW).toBe(configured ?? '0.0.0.0/0,::/0')
      if (configured !== undefined) return
      const dkim = data?.DKIM_DOMAIN ? { DKIM_PRIVATE_KEY_FILE: dkimKey().file } : {}
      const isAllowed = addressMatcher(
        loadConfig({ ...data, PORT: '3000', METRICS_PORT: '9464', ...dkim }).METRICS_ALLOW,
      )
      for (const podAddress of ['10.244.1.7', '100.64.3.4', '2001:db8:42::7'])
        expect(isAllowed(podAddress), podAddress).toBe(true)
    },
  )

  it.each(readdirSync(join(CHART, 'ci', 'invalid')).filter((name) => name.endsWith('.yaml')))(
    'refuses ci/invalid/%s',
    (name) => {
      const file = join(CHART, 'ci', 'invalid', name)
      expect(readFileSync(file, 'utf8')).toMatch(/^# MUST BE REFUSED: \S/)
      const result = helm(binary ?? 'helm', ['template', 'site', CHART, '-f', file])
      expect(result.status).not.toBe(0)
      expect(result.stderr).toMatch(/schema|execution error/)
    },
  )

  it("gives a stopping pod time for the mail server's answer to a mail in progress, and refuses less", () => {
    const values = parse(readFileSync(join(CHART, 'values.yaml'), 'utf8')) as {
      preStopSleepSeconds: number
      shutdownGraceSeconds: number
    }
    // After its requests' grace the app waits at most its SMTP socket timeout for an answer.
    const wait = SMTP_TIMEOUTS.socketMs / 1000
    expect(wait).toBe(600)
    const needed = values.preStopSleepSeconds + values.shutdownGraceSeconds + wait
    const pod = podSpec(render('defaults'), 'Deployment', FULLNAME)
    expect(pod.terminationGracePeriodSeconds).toBeGreaterThan(needed)
    expect(env(pod.containers[0], 'SHUTDOWN_GRACE_MS')?.value).toBe(
      String(values.shutdownGraceSeconds * 1000),
    )
    // The chart's bound is the app's: refused at the sum itself, with what to set and why.
    const refused = template('defaults', ['--set', `terminationGracePeriodSeconds=${needed}`])
    expect(refused.status).not.toBe(0)
    expect(refused.stderr).toContain(
      `terminationGracePeriodSeconds (${needed}) must be greater than preStopSleepSeconds + shutdownGraceSeconds + ${wait} (${needed}): after its requests a stopping pod waits up to ${wait} s for the mail server's answer to a mail in progress`,
    )
    expect(refused.stderr).toContain('a pod with no mail in progress still exits at once')
    expect(
      template('defaults', ['--set', `terminationGracePeriodSeconds=${needed + 1}`]).status,
    ).toBe(0)
    // The default before the wait: enough for the requests alone, no longer accepted.
    expect(template('defaults', ['--set', 'terminationGracePeriodSeconds=30']).status).not.toBe(0)
  })

  it('refuses a route or an Ingress without TRUST_PROXY, and a hop count, saying what to set', () => {
    const withoutList = template('defaults', ['--set', 'ingress.enabled=true'])
    expect(withoutList.status).not.toBe(0)
    expect(withoutList.stderr).toMatch(
      /config\.TRUST_PROXY is empty behind an Ingress: .* share one contact-form rate limit; set the addresses or range of the proxy pods .*client-addresses-trust_proxy/,
    )
    const route = template('httproute-values.yaml', ['--set', 'config.TRUST_PROXY='])
    expect(route.stderr).toMatch(/config\.TRUST_PROXY is empty behind an HTTPRoute/)
    for (const hops of ['1', '2']) {
      const counted = template('ingress-values.yaml', ['--set', `config.TRUST_PROXY=${hops}`])
      expect(counted.status).not.toBe(0)
      expect(counted.stderr).toMatch(
        new RegExp(
          `config\\.TRUST_PROXY \\(${hops}\\) is a hop count, which lets a client .* choose its own address`,
        ),
      )
    }
    // The list a real install sets renders, and the app takes it as the ConfigMap gives it.
    const data = render('ingress-values.yaml').find((m) => m.kind === 'ConfigMap') as
      (Manifest & { data: Record<string, string> }) | undefined
    expect(loadConfig({ TRUST_PROXY: data?.data.TRUST_PROXY ?? '' }).TRUST_PROXY).toEqual([
      '10.244.0.0/16',
    ])
  })

  it('refuses values that are misspelled or of the wrong type', () => {
    const dir = mkdtempSync(join(ROOT, '.bad-values-'))
    try {
      for (const [name, content] of [
        ['typo.yaml', 'replicas: 3\n'],
        ['type.yaml', 'replicaCount: "three"\n'],
        ['nested.yaml', 'image:\n  tagg: latest\n'],
        // YAML reads an unquoted off as false: refused, not taken for "off".
        ['access-log-off.yaml', 'ingress:\n  accessLog: off\n'],
      ] as const) {
        writeFileSync(join(dir, name), content)
        const result = helm(binary ?? 'helm', ['template', 'site', CHART, '-f', join(dir, name)])
        expect(result.status, name).not.toBe(0)
        expect(result.stderr, name).toMatch(/schema/i)
      }
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })

  describe('the key of the contact forms’ tokens', () => {
    const key = (manifests: Manifest[]) => {
      const secret = find(manifests, 'Secret', FULLNAME) as Manifest & {
        data?: Record<string, string>
      }
      return Buffer.from(secret.data?.CONTACT_TOKEN_SECRET ?? '', 'base64').toString('utf8')
    }

    it('is not made by the chart: without one given, the pods keep their own in Redis', () => {
      const manifests = render('replicas-redis-values.yaml')
      const app = podSpec(manifests, 'Deployment', FULLNAME).containers[0]
      // Optional: the Secret has none, so the app makes the key and keeps it in Redis
      // (docs/decisions/form-token-keys.md), the same for every pod and every render.
      expect(env(app, 'CONTACT_TOKEN_SECRET')?.valueFrom?.secretKeyRef).toEqual({
        name: FULLNAME,
        key: 'CONTACT_TOKEN_SECRET',
        optional: true,
      })
      expect(key(manifests)).toBe('')
    })

    it('is the one given in secrets.contactTokenSecret', () => {
      const given = 'a-key-given-by-the-operators-of-this-site-0123'
      const manifests = render('defaults', ['--set', `secrets.contactTokenSecret=${given}`])
      expect(key(manifests)).toBe(given)
      // At least as long as the app requires (CONTACT_TOKEN_SECRET in server/config.ts).
      expect(() => loadConfig({ CONTACT_TOKEN_SECRET: key(manifests) })).not.toThrow()
    })

    it('key-rotation-values.yaml: the new key signs, the previous ones reach every pod too', () => {
      const manifests = render('key-rotation-values.yaml')
      const secret = find(manifests, 'Secret', FULLNAME) as Manifest & {
        data?: Record<string, string>
      }
      const previous = Buffer.from(
        secret.data?.CONTACT_TOKEN_PREVIOUS_SECRETS ?? '',
        'base64',
      ).toString('utf8')
      expect(previous).toBe('the-old-key-of-the-forms-at-least-32-chars')
      const app = podSpec(manifests, 'Deployment', FULLNAME).containers[0]
      expect(env(app, 'CONTACT_TOKEN_PREVIOUS_SECRETS')?.valueFrom?.secretKeyRef).toEqual({
        name: FULLNAME,
        key: 'CONTACT_TOKEN_PREVIOUS_SECRETS',
        optional: true,
      })
      // The app takes what the chart writes.
      const config = loadConfig({
        CONTACT_TOKEN_SECRET: key(manifests),
        CONTACT_TOKEN_PREVIOUS_SECRETS: previous,
        QUARANTINE_DAYS: '14',
      })
      expect(config.CONTACT_TOKEN_PREVIOUS_SECRETS).toEqual([previous])
      // Without previous keys the Secret has no such entry (the app then has none).
      const plain = find(render('defaults'), 'Secret', FULLNAME) as Manifest & {
        data?: Record<string, string>
      }
      expect(plain.data).not.toHaveProperty('CONTACT_TOKEN_PREVIOUS_SECRETS')
    })
  })

  describe('DKIM signing', () => {
    const MOUNT = { name: 'dkim-key', mountPath: '/etc/dkim', readOnly: true }
    const KEY_FILE = '/etc/dkim/private.pem'
    const secretData = (manifests: Manifest[]) =>
      (find(manifests, 'Secret', FULLNAME) as Manifest & { data?: Record<string, string> }).data
    const signing = (key: string) => [
      '--set-string',
      'config.MAIL_FROM=Modernwerk Website <website@modernwerk.example>',
      '--set',
      'config.DKIM_DOMAIN=modernwerk.example',
      '--set',
      'config.DKIM_SELECTOR=web2026',
      '--set-file',
      `secrets.dkimPrivateKey=${key}`,
    ]

    it('is off by default: no key in the Secret, nothing mounted, no key variable', () => {
      const manifests = render('defaults')
      const pod = podSpec(manifests, 'Deployment', FULLNAME)
      const app = pod.containers[0]
      expect(env(app, 'DKIM_PRIVATE_KEY_FILE')).toBeUndefined()
      expect(app?.volumeMounts?.map((mount) => mount.name)).not.toContain(MOUNT.name)
      expect(pod.volumes?.map((volume) => volume.name)).not.toContain(MOUNT.name)
      expect(secretData(manifests)).not.toHaveProperty('DKIM_PRIVATE_KEY')
    })

    it("secrets.dkimPrivateKey: in the chart's Secret, mounted read-only as the file the app reads; the app starts with what the pod gets", () => {
      const { pem, file } = dkimKey()
      const manifests = render('defaults', signing(file))
      expect(typeErrors(manifests)).toEqual([])
      expect(Buffer.from(secretData(manifests)?.DKIM_PRIVATE_KEY ?? '', 'base64').toString()).toBe(
        pem,
      )
      const pod = podSpec(manifests, 'Deployment', FULLNAME)
      const app = pod.containers[0]
      expect(env(app, 'DKIM_PRIVATE_KEY_FILE')).toEqual({
        name: 'DKIM_PRIVATE_KEY_FILE',
        value: KEY_FILE,
      })
      // Never an environment variable: the key is nowhere in the container's env.
      expect(env(app, 'DKIM_PRIVATE_KEY')).toBeUndefined()
      expect(JSON.stringify(app?.env)).not.toContain('"key":"DKIM_PRIVATE_KEY"')
      expect(app?.volumeMounts).toContainEqual(MOUNT)
      expect(pod.volumes).toContainEqual({
        name: MOUNT.name,
        secret: {
          secretName: FULLNAME,
          // Readable by the pod's group (fsGroup), writable by no one.
          defaultMode: 0o440,
          items: [{ key: 'DKIM_PRIVATE_KEY', path: 'private.pem' }],
        },
      })
      expect(pod.securityContext?.fsGroup).toBe(pod.securityContext?.runAsGroup)

      // The app as the pod starts it: the ConfigMap's variables and the mounted file.
      const { data } = find(manifests, 'ConfigMap', FULLNAME) as Manifest & {
        data?: Record<string, string>
      }
      const mounted = join(mkdtempSync(join(tmpdir(), 'chart-dkim-mount-')), 'private.pem')
      writeFileSync(mounted, Buffer.from(secretData(manifests)?.DKIM_PRIVATE_KEY ?? '', 'base64'))
      const config = loadConfig({
        ...data,
        PORT: '3000',
        METRICS_PORT: '9090',
        DKIM_PRIVATE_KEY_FILE: mounted,
      })
      expect(dkimSigning(config)).toMatchObject({
        domainName: 'modernwerk.example',
        keySelector: 'web2026',
      })
      rmSync(dirname(mounted), { recursive: true, force: true })
    })

    it('a new key rolls the pods (the Secret checksum changes)', () => {
      const checksum = (manifests: Manifest[]) =>
        (
          find(manifests, 'Deployment', FULLNAME).spec as {
            template: { metadata: { annotations: Record<string, string> } }
          }
        ).template.metadata.annotations['checksum/secret']
      const other = join(mkdtempSync(join(tmpdir(), 'chart-dkim-other-')), 'private.pem')
      writeFileSync(other, dkimKeyPair().privateKeyPem)
      expect(checksum(render('defaults', signing(dkimKey().file)))).not.toBe(
        checksum(render('defaults', signing(other))),
      )
      rmSync(dirname(other), { recursive: true, force: true })
    })

    it('dkim-values.yaml: the key DKIM_PRIVATE_KEY of secrets.existingSecret, mounted the same way', () => {
      const pod = podSpec(render('dkim-values.yaml'), 'Deployment', FULLNAME)
      expect(env(pod.containers[0], 'DKIM_PRIVATE_KEY_FILE')?.value).toBe(KEY_FILE)
      expect(pod.containers[0]?.volumeMounts).toContainEqual(MOUNT)
      expect(pod.volumes?.find((volume) => volume.name === MOUNT.name)?.secret).toMatchObject({
        secretName: 'modernwerk-web-credentials',
        items: [{ key: 'DKIM_PRIVATE_KEY', path: 'private.pem' }],
      })
    })
  })

  describe('several replicas and Redis', () => {
    it("defaults to two pods on the chart's Redis, behind a password made once, protected mode on", () => {
      const manifests = render('defaults')
      expect(find(manifests, 'Deployment', FULLNAME).spec?.replicas).toBe(2)
      expect(find(manifests, 'PodDisruptionBudget', FULLNAME).spec?.maxUnavailable).toBe(1)
      const app = podSpec(manifests, 'Deployment', FULLNAME).containers[0]
      expect(env(app, 'REDIS_URL')?.value).toBe(`redis://:$(REDIS_PASSWORD)@${REDIS}:6379`)
      const passwordRef = { name: `${REDIS}-auth`, key: 'REDIS_PASSWORD' }
      expect(env(app, 'REDIS_PASSWORD')?.valueFrom?.secretKeyRef).toEqual(passwordRef)
      const secret = find(manifests, 'Secret', `${REDIS}-auth`) as Manifest & {
        data: Record<string, string>
      }
      const password = Buffer.from(secret.data.REDIS_PASSWORD ?? '', 'base64').toString()
      // Letters and digits: it goes into the URL as it is.
      expect(password).toMatch(/^[A-Za-z0-9]{48}$/)
      const redisPod = find(manifests, 'StatefulSet', REDIS).spec as {
        template: { metadata: { annotations: Record<string, string> }; spec: PodSpec }
      }
      const redis = redisPod.template.spec.containers[0]
      const args = redis?.args?.join(' ') ?? ''
      expect(args).toContain('--requirepass $(REDIS_PASSWORD)')
      expect(args).toContain('--protected-mode yes')
      expect(args).not.toContain('--protected-mode no')
      expect(env(redis, 'REDIS_PASSWORD')?.valueFrom?.secretKeyRef).toEqual(passwordRef)
      expect(env(redis, 'REDISCLI_AUTH')?.valueFrom?.secretKeyRef).toEqual(passwordRef)
      // A new password restarts both pods together: the same checksum on both templates.
      const webAnnotations = (
        find(manifests, 'Deployment', FULLNAME).spec as {
          template: { metadata: { annotations: Record<string, string> } }
        }
      ).template.metadata.annotations
      expect(webAnnotations['checksum/redis-auth']).toMatch(/^[0-9a-f]{64}$/)
      expect(redisPod.template.metadata.annotations['checksum/redis-auth']).toBe(
        webAnnotations['checksum/redis-auth'],
      )
      // The app starts with what the pod gets, the password put in its place by the kubelet.
      const url = `redis://:${password}@${REDIS}:6379`
      expect(loadConfig({ REDIS_URL: url }).REDIS_URL).toBe(url)
    })

    it('keeps the Redis password it made at install on every upgrade (lookup of its Secret)', async () => {
      const dir = mkdtempSync(join(tmpdir(), 'modernwerk-lookup-'))
      const api = await startFakeKubeApi(dir)
      try {
        // As `helm upgrade` renders against the cluster: `lookup` reads what is there. Not
        // spawnSync: the fake API answers from this process's event loop.
        const upgrade = async () => {
          const { stdout } = await execFileAsync(binary ?? 'helm', [
            'template',
            'site',
            CHART,
            '--kube-version',
            '1.30.0',
            '--dry-run=server',
            '--kubeconfig',
            api.kubeconfig,
          ])
          return parseAllDocuments(stdout)
            .map((document) => document.toJS() as Manifest | null)
            .filter((manifest): manifest is Manifest => manifest !== null)
        }
        const passwordOf = (manifests: Manifest[]) =>
          (
            find(manifests, 'Secret', `${REDIS}-auth`) as Manifest & {
              data: Record<string, string>
            }
          ).data.REDIS_PASSWORD
        const checksumOf = (manifests: Manifest[]) =>
          (
            find(manifests, 'Deployment', FULLNAME).spec as {
              template: { metadata: { annotations: Record<string, string> } }
            }
          ).template.metadata.annotations['checksum/redis-auth']
        const install = await upgrade()
        const made = passwordOf(install)
        // The install's Secret is in the cluster now; every upgrade keeps its password, and so
        // the pods' checksum: nothing restarts for it.
        api.put({
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: `${REDIS}-auth`, namespace: 'default' },
          data: { REDIS_PASSWORD: made ?? '' },
        })
        for (let i = 0; i < 2; i++) {
          const upgraded = await upgrade()
          expect(passwordOf(upgraded)).toBe(made)
          expect(checksumOf(upgraded)).toBe(checksumOf(install))
        }
        // Without it (a first install, or a GitOps render that cannot look), a new one.
        expect(passwordOf(render('defaults'))).not.toBe(made)
      } finally {
        await api.stop()
        rmSync(dir, { recursive: true, force: true })
      }
    })

    it('renders the same twice for a GitOps tool once the password is a Secret of its own', () => {
      const values = ['--set', 'redis.auth.existingSecret=web-redis']
      const first = template('defaults', values)
      expect(first.status).toBe(0)
      expect(template('defaults', values).stdout).toBe(first.stdout)
      // Nothing made at render time: no key of the forms, no password.
      const manifests = render('defaults', values)
      expect(
        manifests.filter((manifest) => manifest.kind === 'Secret').map((m) => m.metadata.name),
      ).toEqual([FULLNAME])
      // With the chart's own password, that Secret is the only thing that differs.
      const withPassword = (text: string) =>
        text
          .replace(/REDIS_PASSWORD: "[^"]+"/, 'REDIS_PASSWORD: …')
          .replace(/checksum\/redis-auth: \w+/g, 'checksum')
      expect(withPassword(template('defaults').stdout)).toBe(
        withPassword(template('defaults').stdout),
      )
    })

    it("replicas-redis-values.yaml: three pods on the chart's durable Redis", () => {
      const manifests = render('replicas-redis-values.yaml')
      const deployment = find(manifests, 'Deployment', FULLNAME)
      expect(deployment.spec?.replicas).toBe(3)
      expect(deployment.spec?.strategy).toEqual({
        type: 'RollingUpdate',
        rollingUpdate: { maxSurge: 1, maxUnavailable: 0 },
      })
      expect(find(manifests, 'PodDisruptionBudget', FULLNAME).spec?.maxUnavailable).toBe(1)

      // The app's REDIS_URL is the chart's Redis Service, set in exactly one place.
      const app = podSpec(manifests, 'Deployment', FULLNAME).containers[0]
      expect(app?.env?.filter((variable) => variable.name === 'REDIS_URL')).toEqual([
        { name: 'REDIS_URL', value: `redis://:$(REDIS_PASSWORD)@${REDIS}:6379` },
      ])
      const service = find(manifests, 'Service', REDIS).spec as {
        type: string
        ports: { port: number; targetPort: string }[]
        selector: Record<string, string>
      }
      expect(service.type).toBe('ClusterIP')
      expect(service.ports).toEqual([expect.objectContaining({ port: 6379, targetPort: 'redis' })])

      // One durable Redis node behind it, with its data on a PVC.
      const statefulSet = find(manifests, 'StatefulSet', REDIS).spec as {
        replicas: number
        serviceName: string
        template: { metadata: { labels: Record<string, string> }; spec: PodSpec }
        volumeClaimTemplates: { spec: { resources: { requests: { storage: string } } } }[]
      }
      expect(statefulSet.replicas).toBe(1)
      expect(find(manifests, 'Service', statefulSet.serviceName).spec?.clusterIP).toBe('None')
      const podLabels = statefulSet.template.metadata.labels
      expect(podLabels).toMatchObject(service.selector)
      expect(statefulSet.volumeClaimTemplates[0]?.spec.resources.requests.storage).toBe('2Gi')
      expect(statefulSet.template.spec.securityContext).toMatchObject({
        runAsNonRoot: true,
        runAsUser: 999,
      })
      const redis = statefulSet.template.spec.containers[0]
      // Each flag with the value after it, e.g. --appendonly yes.
      const args = redis?.args ?? []
      const flags = Object.fromEntries(
        args.flatMap((arg, index) => (arg.startsWith('--') ? [[arg, args[index + 1]]] : [])),
      )
      expect(flags).toMatchObject({
        '--appendonly': 'yes',
        '--appendfsync': 'always',
        '--maxmemory': '200mb',
        '--maxmemory-policy': 'noeviction',
        '--save': '',
        '--dir': '/data',
      })
      expect(redis?.volumeMounts).toContainEqual({ name: 'data', mountPath: '/data' })
      expect(redis?.resources?.limits?.memory).toBe('512Mi')
      expect(redis?.ports?.[0]?.containerPort).toBe(6379)

      // Client affinity for ingress-nginx.
      expect(find(manifests, 'Ingress', FULLNAME).metadata.annotations).toMatchObject({
        'nginx.ingress.kubernetes.io/upstream-hash-by': '$binary_remote_addr',
      })

      // app -> Redis pods on 6379, and Redis admits the app pods only.
      const appLabels = (
        deployment.spec as { template: { metadata: { labels: Record<string, string> } } }
      ).template.metadata.labels
      const appPolicy = find(manifests, 'NetworkPolicy', FULLNAME).spec as {
        egress: NetworkPolicyRule[]
      }
      const toRedis = appPolicy.egress.filter((rule) =>
        rule.ports?.some((port) => port.port === 6379),
      )
      expect(toRedis).toHaveLength(1)
      expect(toRedis[0]?.to?.every((peer) => selects(peer, podLabels))).toBe(true)
      expect(toRedis[0]?.to?.length).toBeGreaterThan(0)
      const redisPolicy = find(manifests, 'NetworkPolicy', REDIS).spec as {
        podSelector: LabelSelector
        policyTypes: string[]
        ingress: NetworkPolicyRule[]
        egress: NetworkPolicyRule[]
      }
      expect(selects({ podSelector: redisPolicy.podSelector }, podLabels)).toBe(true)
      expect(selects({ podSelector: redisPolicy.podSelector }, appLabels)).toBe(false)
      expect(redisPolicy.policyTypes).toEqual(['Ingress', 'Egress'])
      expect(redisPolicy.ingress).toHaveLength(1)
      expect(redisPolicy.ingress[0]?.from?.length).toBeGreaterThan(0)
      expect(redisPolicy.ingress[0]?.from?.every((peer) => selects(peer, appLabels))).toBe(true)
      expect(redisPolicy.ingress[0]?.ports).toEqual([{ port: 6379, protocol: 'TCP' }])
      expect(redisPolicy.egress).toEqual([])
    })

    it("the chart's Redis command line runs as written and keeps its data as plain commands", async (context) => {
      if (!hasRedisServer()) return context.skip(`no ${REDIS_SERVER} to run the arguments with`)
      const manifests = render('replicas-redis-values.yaml')
      const statefulSet = find(manifests, 'StatefulSet', REDIS).spec as {
        template: { spec: PodSpec }
      }
      const container = statefulSet.template.spec.containers[0]
      expect(container?.command).toEqual(['redis-server'])
      // The pod's own arguments, with a free loopback port and a folder of this test's for
      // the pod's 6379 and /data.
      const port = await freePort()
      const dir = mkdtempSync(join(tmpdir(), 'modernwerk-chart-redis-'))
      // $(REDIS_PASSWORD) as the kubelet expands it from the pod's variable.
      const password = 'a-password-the-kubelet-put-in-place-0123'
      const args = (container?.args ?? []).map((arg) =>
        arg === '6379'
          ? String(port)
          : arg === '/data'
            ? dir
            : arg === '$(REDIS_PASSWORD)'
              ? password
              : arg,
      )
      const server = spawn(REDIS_SERVER, [...args, '--bind', '127.0.0.1'], { stdio: 'pipe' })
      let output = ''
      server.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()))
      const client = new Redis({
        port,
        host: '127.0.0.1',
        password,
        lazyConnect: true,
        maxRetriesPerRequest: 0,
      })
      const stranger = new Redis({
        port,
        host: '127.0.0.1',
        lazyConnect: true,
        maxRetriesPerRequest: 0,
      })
      stranger.on('error', () => {})
      try {
        await vi.waitFor(
          () => {
            if (server.exitCode !== null) throw new Error(`redis-server exited:\n${output}`)
            expect(output).toContain('Ready to accept connections')
          },
          { timeout: 30_000, interval: 50 },
        )
        await client.connect()
        // Without the password nothing is served.
        await stranger.connect().catch(() => {})
        await expect(stranger.get('contact:job')).rejects.toThrow(/NOAUTH/)
        await client.hset('contact:job', 'name', 'Ada')
        await client.bgrewriteaof()
        // The rewritten base file (the manifest's second one) is commands (RESP, starting with
        // "*"), not an RDB preamble ("REDIS…", in a file named .base.rdb), so any Redis or
        // Valkey version can load it.
        const folder = join(dir, 'appendonlydir')
        const baseName = await vi.waitFor(
          () => {
            const manifest = readdirSync(folder).find((file) => file.endsWith('.manifest'))
            const text = manifest ? readFileSync(join(folder, manifest), 'utf8') : ''
            const name = /^file (\S+) seq 2 type b$/m.exec(text)?.[1]
            if (!name) throw new Error(`no rewritten base file yet: ${text}`)
            return name
          },
          { timeout: 30_000, interval: 100 },
        )
        expect(baseName).toMatch(/\.base\.aof$/)
        const base = readFileSync(join(folder, baseName), 'latin1')
        expect(base.startsWith('*')).toBe(true)
        expect(base).toContain('contact:job')
        expect(await client.config('GET', 'maxmemory-policy')).toEqual([
          'maxmemory-policy',
          'noeviction',
        ])
        expect(await client.config('GET', 'appendfsync')).toEqual(['appendfsync', 'always'])
      } finally {
        client.disconnect()
        stranger.disconnect()
        server.kill('SIGTERM')
        if (server.exitCode === null) await once(server, 'exit')
        rmSync(dir, { recursive: true, force: true })
      }
    })

    it('replicas-external-redis-values.yaml: autoscaling on the Redis of secrets.redisUrl', () => {
      const manifests = render('replicas-external-redis-values.yaml')
      expect(manifests.map((manifest) => manifest.kind)).not.toContain('StatefulSet')
      expect(find(manifests, 'HorizontalPodAutoscaler', FULLNAME).spec?.minReplicas).toBe(2)
      const app = podSpec(manifests, 'Deployment', FULLNAME).containers[0]
      expect(env(app, 'REDIS_URL')?.valueFrom?.secretKeyRef?.key).toBe('REDIS_URL')
      const policy = find(manifests, 'NetworkPolicy', FULLNAME).spec as {
        egress: NetworkPolicyRule[]
      }
      expect(policy.egress).toContainEqual({ ports: [{ port: 6380, protocol: 'TCP' }] })
      // sessionAffinity off (not ingress-nginx): no annotation
      expect(find(manifests, 'Ingress', FULLNAME).metadata.annotations ?? {}).not.toHaveProperty(
        'nginx.ingress.kubernetes.io/upstream-hash-by',
      )
    })

    it('redis-auth-values.yaml: the password of redis.auth.existingSecret reaches Redis and the URL', () => {
      const manifests = render('redis-auth-values.yaml')
      const app = podSpec(manifests, 'Deployment', FULLNAME).containers[0]
      const names = app?.env?.map((variable) => variable.name) ?? []
      // $(REDIS_PASSWORD) is only expanded from a variable defined earlier in the list.
      expect(names.indexOf('REDIS_PASSWORD')).toBeGreaterThan(-1)
      expect(names.indexOf('REDIS_PASSWORD')).toBeLessThan(names.indexOf('REDIS_URL'))
      expect(env(app, 'REDIS_PASSWORD')?.valueFrom?.secretKeyRef).toEqual({
        name: 'modernwerk-web-redis',
        key: 'REDIS_PASSWORD',
      })
      expect(env(app, 'REDIS_URL')?.value).toBe(`redis://:$(REDIS_PASSWORD)@${REDIS}:6379`)
      const redis = podSpec(manifests, 'StatefulSet', REDIS).containers[0]
      expect(redis?.args?.join(' ')).toContain('--requirepass $(REDIS_PASSWORD)')
      expect(redis?.args?.join(' ')).toContain('--protected-mode yes')
      expect(env(redis, 'REDISCLI_AUTH')?.valueFrom?.secretKeyRef?.key).toBe('REDIS_PASSWORD')
      // The chart makes no password of its own then.
      expect(manifests.map((m) => m.metadata.name)).not.toContain(`${REDIS}-auth`)
    })

    it.each([
      [
        ['--set', 'replicaCount=3', '--set', 'redis.enabled=false'],
        /replicaCount 3 needs Redis: set redis\.enabled=true or secrets\.redisUrl/,
      ],
      [
        ['--set', 'autoscaling.enabled=true', '--set', 'redis.enabled=false'],
        /autoscaling\.enabled needs Redis/,
      ],
      [
        ['--set', 'secrets.redisUrl=redis://redis.example:6379'],
        /secrets\.redisUrl names an external Redis, but the chart's own is on .* set redis\.enabled=false/,
      ],
      [
        ['--set', 'redis.enabled=false', '--set', 'replicaCount=1'],
        /waiting contact messages live on the pod's emptyDir .* allowLosingWaitingLeads=true/,
      ],
      [
        [
          '--set',
          'redis.enabled=false',
          '--set',
          'replicaCount=1',
          '--set',
          'persistence.enabled=true',
        ],
        /persistence\.enabled keeps the outbox folder on one volume, which two pods must never use at once .* set updateStrategy\.type=Recreate and replicaCount=1/,
      ],
      [
        ['--set', 'persistence.enabled=true', '--set', 'updateStrategy.type=Recreate'],
        /persistence\.enabled keeps the outbox folder on one volume/,
      ],
      [
        ['--set', 'redis.enabled=true', '--set', 'redis.maxmemory=300mb'],
        /redis\.maxmemory .* must be below redis\.resources\.limits\.memory/,
      ],
      [
        ['--set', 'shutdownGraceSeconds=60'],
        /terminationGracePeriodSeconds \(630\) must be greater than preStopSleepSeconds \+ shutdownGraceSeconds \+ 600 \(665\)/,
      ],
      [
        ['--set', 'updateStrategy.rollingUpdate.maxSurge=0'],
        /maxSurge and maxUnavailable cannot both be 0/,
      ],
    ])('refuses %j (defaults otherwise) with a message saying what to do', (extra, message) => {
      const result = template('defaults', extra)
      expect(result.status).not.toBe(0)
      expect(result.stderr).toMatch(message)
    })

    it.each([
      ['secrets.existingSecret=credentials', 'redis.enabled=false'],
      ['secrets.redisUrl=redis://redis.example:6379', 'redis.enabled=false'],
      ['redis.enabled=true', 'redis.enabled=true'],
    ])('allows replicaCount 3 with %s', (redis, own) => {
      const manifests = render('defaults', [
        '--set',
        'replicaCount=3',
        '--set',
        redis,
        '--set',
        own,
      ])
      expect(find(manifests, 'Deployment', FULLNAME).spec?.replicas).toBe(3)
    })

    it('lets ingress.annotations replace the affinity annotation', () => {
      const annotation = 'nginx.ingress.kubernetes.io/upstream-hash-by'
      const manifests = render('defaults', [
        ...WITH_INGRESS,
        '--set-string',
        `ingress.annotations.${annotation.replaceAll('.', '\\.')}=$http_x_forwarded_for`,
      ])
      expect(find(manifests, 'Ingress', FULLNAME).metadata.annotations).toEqual({
        [annotation]: '$http_x_forwarded_for',
        ...ACCESS_LOG_OFF,
      })
    })
  })

  describe('Gateway API: the HTTPRoute', () => {
    type Route = Manifest & {
      spec: {
        parentRefs: { name: string; namespace?: string; sectionName?: string }[]
        hostnames?: string[]
        rules: {
          matches?: { path?: { type: string; value: string } }[]
          filters?: { type: string; requestRedirect?: { scheme: string; statusCode: number } }[]
          backendRefs?: { name: string; port: number }[]
        }[]
      }
    }
    const routes = (valueSet: string, extra: string[] = []) =>
      render(valueSet, extra).filter((manifest): manifest is Route => manifest.kind === 'HTTPRoute')

    it('none unless enabled; then it needs the Gateway it attaches to', () => {
      expect(routes('defaults')).toEqual([])
      const result = template('defaults', ['--set', 'httpRoute.enabled=true'])
      expect(result.status).not.toBe(0)
      expect(result.stderr).toContain('httpRoute.parentRefs must name the Gateway')
    })

    it('httproute-values.yaml: every path of its hosts to the site port, attached to a Gateway in another namespace', () => {
      const [route, ...others] = routes('httproute-values.yaml')
      expect(others).toEqual([])
      expect(route?.metadata.name).toBe(FULLNAME)
      expect(route?.spec.parentRefs).toEqual([
        { name: 'public', namespace: 'gateway-system', sectionName: 'https' },
      ])
      expect(route?.spec.hostnames).toEqual(['www.modernwerk.example', 'modernwerk.example'])
      expect(route?.spec.rules).toEqual([
        {
          matches: [{ path: { type: 'PathPrefix', value: '/' } }],
          backendRefs: [{ name: FULLNAME, port: 80 }],
        },
      ])
      // The Service's http port, never its metrics port: /metrics is not routed.
      const service = find(render('httproute-values.yaml'), 'Service', FULLNAME) as Manifest & {
        spec: { ports: { name: string; port: number }[] }
      }
      const http = service.spec.ports.find(({ name }) => name === 'http')
      expect(route?.spec.rules[0]?.backendRefs?.[0]?.port).toBe(http?.port)
      expect(service.spec.ports.find(({ name }) => name === 'metrics')?.port).not.toBe(http?.port)
    })

    it('httproute-redirect-values.yaml: plain HTTP answered 301 to https by the Gateway, on its own listener', () => {
      const all = routes('httproute-redirect-values.yaml')
      expect(all.map((route) => route.metadata.name)).toEqual([
        FULLNAME,
        `${FULLNAME}-https-redirect`,
      ])
      const redirect = all[1]
      expect(redirect?.spec.parentRefs[0]?.sectionName).toBe('http')
      expect(redirect?.spec.rules).toEqual([
        {
          filters: [
            { type: 'RequestRedirect', requestRedirect: { scheme: 'https', statusCode: 301 } },
          ],
        },
      ])
      expect(all[0]?.spec.rules[0]?.filters).toEqual([
        {
          type: 'RequestHeaderModifier',
          requestHeaderModifier: { set: [{ name: 'X-Forwarded-Proto', value: 'https' }] },
        },
      ])
    })

    it('the schema check catches a route the Gateway API refuses', () => {
      const [route] = routes('httproute-values.yaml')
      if (!route) throw new Error('no route')
      const broken = structuredClone(route)
      ;(broken.spec.rules[0]?.backendRefs?.[0] as { port: unknown }).port = 'http'
      expect(gatewayApiErrors([broken])).toEqual([expect.stringContaining('port must be integer')])
    })
  })

  describe("the entry proxy's access log", () => {
    const annotations = (extra: string[], valueSet = 'defaults') =>
      find(render(valueSet, [...WITH_INGRESS, ...extra]), 'Ingress', FULLNAME).metadata
        .annotations ?? {}

    it.each(VALUE_SETS)(
      '%s: the Ingress turns it off for this site, beside the value set’s own annotations',
      (valueSet) => {
        const values = (
          valueSet === 'defaults' ? {} : parse(readFileSync(join(CHART, 'ci', valueSet), 'utf8'))
        ) as { ingress?: { accessLog?: string; annotations?: Record<string, string> } }
        const own = values.ingress?.annotations ?? {}
        const rendered = annotations([], valueSet)
        expect(rendered).toMatchObject(own)
        if ((values.ingress?.accessLog ?? 'disabled') === 'disabled')
          expect(rendered).toMatchObject({ ...ACCESS_LOG_OFF, ...own })
      },
    )

    it('ingress.accessLog controller leaves the controller’s own setting: no switch', () => {
      const rendered = annotations(['--set', 'ingress.accessLog=controller'])
      for (const key of Object.keys(ACCESS_LOG_OFF)) expect(rendered).not.toHaveProperty(key)
    })

    it('an annotation of ingress.annotations for the same key wins', () => {
      const own = Object.keys(ACCESS_LOG_OFF).flatMap((key) => [
        '--set-string',
        `ingress.annotations.${key.replaceAll('.', '\\.')}=true`,
      ])
      const rendered = annotations(own)
      for (const key of Object.keys(ACCESS_LOG_OFF)) expect(rendered[key], key).toBe('true')
    })
  })

  describe('backups and snapshots leave the message stores out', () => {
    type PodTemplate = {
      metadata: { labels?: Record<string, string>; annotations?: Record<string, string> }
      spec: {
        containers: { volumeMounts?: { name: string; mountPath: string }[] }[]
      }
    }
    type ClaimTemplate = { metadata: { name: string; labels?: Record<string, string> } }
    /** Where the message stores are mounted: the website's outbox folder, the chart's Redis data. */
    const STORE_MOUNTS = ['/data/outbox', '/data']
    const BOTH_STORES = [
      '--set',
      'persistence.enabled=true',
      '--set',
      'redis.enabled=true',
      '--set',
      'replicaCount=1',
      '--set',
      'updateStrategy.type=Recreate',
    ]
    const OFF = ['--set', 'backup.excludeDataVolumes=false']
    const escaped = (key: string) => key.replaceAll('.', '\\.')
    const podTemplate = (manifests: Manifest[], kind: string, name: string) =>
      (find(manifests, kind, name).spec as { template: PodTemplate }).template
    const claimTemplates = (manifests: Manifest[]) =>
      manifests
        .filter((manifest) => manifest.kind === 'StatefulSet')
        .flatMap(
          (manifest) =>
            (manifest.spec as { volumeClaimTemplates?: ClaimTemplate[] }).volumeClaimTemplates ??
            [],
        )
    const outboxClaim = (manifests: Manifest[]) =>
      find(manifests, 'PersistentVolumeClaim', `${FULLNAME}-outbox`)

    it('by default: the outbox PVC, the Redis volumeClaimTemplate and both pods', () => {
      const manifests = render('defaults', BOTH_STORES)
      expect(outboxClaim(manifests).metadata.labels?.[VELERO_EXCLUDE_LABEL]).toBe('true')
      const [data] = claimTemplates(manifests)
      expect(data?.metadata.name).toBe('data')
      expect(data?.metadata.labels).toEqual({
        'app.kubernetes.io/name': 'modernization-partners-web',
        'app.kubernetes.io/instance': 'site',
        'app.kubernetes.io/component': 'redis',
        [VELERO_EXCLUDE_LABEL]: 'true',
      })
      for (const [kind, name, volume] of [
        ['Deployment', FULLNAME, 'outbox'],
        ['StatefulSet', REDIS, 'data'],
      ] as const) {
        const pod = podTemplate(manifests, kind, name)
        expect(pod.metadata.labels?.[VELERO_EXCLUDE_LABEL], name).toBe('true')
        expect(pod.metadata.annotations?.[VELERO_FS_BACKUP_EXCLUDES], name).toBe(volume)
        // A volume of the pod (the claim template's, for the StatefulSet), mounted there.
        const mounts = pod.spec.containers.flatMap((container) => container.volumeMounts ?? [])
        expect(mounts.map((mount) => mount.name)).toContain(volume)
      }
    })

    it.each(VALUE_SETS)(
      '%s: every PVC, claim template and pod that mounts a message store carries it',
      (valueSet) => {
        const manifests = render(valueSet)
        for (const claim of manifests.filter((m) => m.kind === 'PersistentVolumeClaim'))
          expect(claim.metadata.labels?.[VELERO_EXCLUDE_LABEL], claim.metadata.name).toBe('true')
        for (const claim of claimTemplates(manifests))
          expect(claim.metadata.labels?.[VELERO_EXCLUDE_LABEL], claim.metadata.name).toBe('true')
        let pods = 0
        for (const manifest of manifests) {
          const pod = (manifest.spec as { template?: PodTemplate } | undefined)?.template
          const stores = (pod?.spec.containers ?? []).flatMap((container) =>
            (container.volumeMounts ?? [])
              .filter((mount) => STORE_MOUNTS.includes(mount.mountPath))
              .map((mount) => mount.name),
          )
          if (!pod || stores.length === 0) continue
          pods += 1
          const name = `${manifest.kind}/${manifest.metadata.name}`
          expect(pod.metadata.labels?.[VELERO_EXCLUDE_LABEL], name).toBe('true')
          const excluded = pod.metadata.annotations?.[VELERO_FS_BACKUP_EXCLUDES]?.split(',')
          expect(excluded, name).toEqual(expect.arrayContaining(stores))
        }
        expect(pods).toBeGreaterThan(0)
      },
    )

    it('backup.excludeDataVolumes false: neither label nor annotation anywhere', () => {
      const result = template('defaults', [...BOTH_STORES, ...OFF])
      expect(result.status).toBe(0)
      expect(result.stdout).not.toContain(VELERO_EXCLUDE_LABEL)
      expect(result.stdout).not.toContain(VELERO_FS_BACKUP_EXCLUDES)
      const manifests = render('defaults', [...BOTH_STORES, ...OFF])
      expect(outboxClaim(manifests).metadata.labels).not.toHaveProperty(VELERO_EXCLUDE_LABEL)
      expect(claimTemplates(manifests)[0]?.metadata.labels).not.toHaveProperty(VELERO_EXCLUDE_LABEL)
      // Only the password's checksum (a new one restarts Redis).
      expect(
        Object.keys(podTemplate(manifests, 'StatefulSet', REDIS).metadata.annotations ?? {}),
      ).toEqual(['checksum/redis-auth'])
    })

    it('keeps the operator’s own: volume names of podAnnotations stay, podLabels win', () => {
      const dir = mkdtempSync(join(ROOT, '.backup-values-'))
      try {
        const file = join(dir, 'values.yaml')
        writeFileSync(
          file,
          [
            'podAnnotations:',
            `  ${VELERO_FS_BACKUP_EXCLUDES}: "istio-envoy, outbox"`,
            '  example.com/team: web',
            'podLabels:',
            `  ${VELERO_EXCLUDE_LABEL}: "false"`,
            '  example.com/tier: front',
            '',
          ].join('\n'),
        )
        const pod = (extra: string[] = []) =>
          podTemplate(render('defaults', ['-f', file, ...extra]), 'Deployment', FULLNAME).metadata
        const merged = pod()
        expect(merged.annotations).toMatchObject({
          [VELERO_FS_BACKUP_EXCLUDES]: 'istio-envoy,outbox',
          'example.com/team': 'web',
        })
        expect(merged.labels).toMatchObject({
          [VELERO_EXCLUDE_LABEL]: 'false',
          'example.com/tier': 'front',
        })
        // Off: the operator's annotation as given.
        expect(pod(OFF).annotations?.[VELERO_FS_BACKUP_EXCLUDES]).toBe('istio-envoy, outbox')
      } finally {
        rmSync(dir, { recursive: true, force: true })
      }
    })

    it('a label of commonLabels for the same key wins, without a duplicate key', () => {
      const manifests = render('defaults', [
        ...BOTH_STORES,
        '--set-string',
        `commonLabels.${escaped(VELERO_EXCLUDE_LABEL)}=false`,
      ])
      expect(outboxClaim(manifests).metadata.labels?.[VELERO_EXCLUDE_LABEL]).toBe('false')
      for (const [kind, name] of [
        ['Deployment', FULLNAME],
        ['StatefulSet', REDIS],
      ] as const)
        expect(podTemplate(manifests, kind, name).metadata.labels?.[VELERO_EXCLUDE_LABEL]).toBe(
          'false',
        )
    })
  })
})

const binary4 = helmBinary(4)
if (!binary4)
  console.warn('Skipping the Helm 4 checks: no Helm 4 binary could be had from the npm registry')

/** A render without what is made anew on each (the chart's Redis password and its checksum). */
const withoutRandom = (rendered: string) =>
  rendered
    .replace(/^(\s*REDIS_PASSWORD: ).*$/gm, '$1…')
    .replace(/^(\s*checksum\/redis-auth: ).*$/gm, '$1…')

// Helm 4 changed how a release is applied (server-side apply for new installs), renamed
// flags of install and upgrade and moved post-renderers to plugins; the chart uses none of
// those flags, and what it renders must not change (helm/README.md#helm-4).
describe.skipIf(!binary || !binary4)('Helm 4', () => {
  it.each(VALUE_SETS)(
    '%s passes helm lint --strict and renders what Helm 3 renders',
    (valueSet) => {
      const values = valueSet === 'defaults' ? [] : ['-f', join(CHART, 'ci', valueSet)]
      const lint = helm(binary4 ?? 'helm', ['lint', '--strict', CHART, ...values])
      expect(lint.stderr + lint.stdout).toContain('1 chart(s) linted, 0 chart(s) failed')
      expect(lint.status).toBe(0)
      const args = ['template', 'site', CHART, '--kube-version', '1.30.0', ...values]
      const four = helm(binary4 ?? 'helm', args)
      expect(four.stderr).toBe('')
      expect(four.status).toBe(0)
      expect(withoutRandom(four.stdout)).toBe(withoutRandom(template(valueSet).stdout))
    },
  )

  it.each(readdirSync(join(CHART, 'ci', 'invalid')).filter((name) => name.endsWith('.yaml')))(
    'refuses invalid/%s with the message Helm 3 gives',
    (name) => {
      const args = ['template', 'site', CHART, '-f', join(CHART, 'ci', 'invalid', name)]
      const four = helm(binary4 ?? 'helm', args)
      expect(four.status).not.toBe(0)
      const firstLine = (text: string) => text.split('\n')[0]
      expect(firstLine(four.stderr)).toBe(firstLine(helm(binary ?? 'helm', args).stderr))
    },
  )
})

describe.skipIf(!binary)('/metrics stays off the public path', () => {
  type ServicePort = { name: string; port: number; targetPort: string }
  type IngressPath = { backend: { service: { name: string; port: { number: number } } } }

  it.each(['NodePort', 'LoadBalancer'])(
    'service.type %s: the published Service has the site port only; /metrics a ClusterIP Service',
    (type) => {
      const manifests = render('defaults', ['--set', `service.type=${type}`])
      const published = find(manifests, 'Service', FULLNAME)
      expect(published.spec?.type).toBe(type)
      expect((published.spec?.ports as ServicePort[]).map((port) => port.name)).toEqual(['http'])
      const metrics = find(manifests, 'Service', `${FULLNAME}-metrics`)
      expect(metrics.spec?.type).toBe('ClusterIP')
      expect((metrics.spec?.ports as ServicePort[]).map((port) => port.targetPort)).toEqual([
        'metrics',
      ])
      expect(metrics.spec?.selector).toEqual(published.spec?.selector)
      // With the default ClusterIP there is one Service, with both ports.
      const one = render('defaults').filter((manifest) => manifest.kind === 'Service')
      expect(one.map((service) => service.metadata.name)).not.toContain(`${FULLNAME}-metrics`)
    },
  )

  it.each(VALUE_SETS)(
    '%s: the Ingress reaches the site port only, Prometheus the metrics port',
    (valueSet) => {
      const manifests = render(valueSet, [...WITH_INGRESS, '--set', 'serviceMonitor.enabled=true'])
      const app = podSpec(manifests, 'Deployment', FULLNAME).containers[0]
      const sitePort = Number(env(app, 'PORT')?.value)
      const metricsPort = Number(env(app, 'METRICS_PORT')?.value)
      // The app serves /metrics on METRICS_PORT only, and 404 on PORT (tests/server/main.test.ts).
      expect(metricsPort).toBeGreaterThan(0)
      expect(metricsPort).not.toBe(sitePort)
      expect(app?.ports?.find((port) => port.name === 'metrics')?.containerPort).toBe(metricsPort)

      const ports = (find(manifests, 'Service', FULLNAME).spec?.ports ?? []) as ServicePort[]
      const servicePortOf = (target: string) =>
        ports.find((port) => port.targetPort === target)?.port
      const rules = (find(manifests, 'Ingress', FULLNAME).spec?.rules ?? []) as {
        http: { paths: IngressPath[] }
      }[]
      const routed = rules.flatMap((rule) =>
        rule.http.paths.map((path) => path.backend.service.port.number),
      )
      expect(routed.length).toBeGreaterThan(0)
      expect(new Set(routed)).toEqual(new Set([servicePortOf('http')]))
      expect(routed).not.toContain(servicePortOf('metrics'))

      const endpoints = (find(manifests, 'ServiceMonitor', FULLNAME).spec?.endpoints ?? []) as {
        port: string
        path: string
      }[]
      expect(endpoints).toEqual([expect.objectContaining({ port: 'metrics', path: '/metrics' })])

      const policy = manifests.find(
        (manifest) => manifest.kind === 'NetworkPolicy' && manifest.metadata.name === FULLNAME,
      )
      if (policy) {
        // Whoever may reach the pods from outside the monitoring namespace gets the site port only.
        const ingress = (policy.spec?.ingress ?? []) as NetworkPolicyRule[]
        for (const rule of ingress) {
          const isMonitoring = rule.from?.some((peer) =>
            JSON.stringify(peer.namespaceSelector ?? {}).includes('monitoring'),
          )
          const rulePorts = (rule.ports ?? []).map((port) => port.port)
          if (!isMonitoring) expect(rulePorts).not.toContain('metrics')
          else expect(rulePorts).toEqual(['metrics'])
        }
      }
    },
  )
})

describe('values.yaml', () => {
  const text = readFileSync(join(CHART, 'values.yaml'), 'utf8')
  const values = parse(text) as unknown
  const documented = new Set(
    [...text.matchAll(/^ *# ([\w.]+) -- \S/gm)].map((match) => match[1] ?? ''),
  )
  /** The value at a dotted path, or undefined. */
  const lookup = (path: string) =>
    path
      .split('.')
      .reduce<unknown>(
        (value, key) =>
          value && typeof value === 'object' && key in value
            ? (value as Record<string, unknown>)[key]
            : undefined,
        values,
      )

  it('documents every value with its own name ("# key -- text"), or all of its keys', () => {
    const undocumented: string[] = []
    const walk = (value: unknown, path: string) => {
      if (path && documented.has(path)) return
      if (
        value &&
        typeof value === 'object' &&
        !Array.isArray(value) &&
        Object.keys(value).length > 0
      ) {
        for (const [key, child] of Object.entries(value)) walk(child, path ? `${path}.${key}` : key)
      } else undocumented.push(path)
    }
    walk(values, '')
    expect(undocumented).toEqual([])
  })

  it('documents only values that exist', () => {
    expect([...documented].filter((path) => lookup(path) === undefined)).toEqual([])
  })
})
