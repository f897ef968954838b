/**
 * The fault drill (docs/operations.md#the-fault-drill): the Helm chart with its defaults plus
 * only what a real install must set (a route, `TRUST_PROXY`, the mail server's address), run
 * with podman as a cluster would run it, to show that an accepted lead survives what happens
 * to pods, and that pages answer throughout:
 *
 * 1. the chart's Redis and the site's two pods start; a "Service" sends a page request every
 *    50 ms to the pods that are ready and not terminating, as kube-proxy would;
 * 2. a lead is posted, as a person's browser posts it, while the mail server is down;
 * 3. the site's pods are replaced twice, one at a time as the chart's rolling update does (the
 *    new pod ready before the old one leaves the endpoints, then its preStop pause, then
 *    SIGTERM), and the Redis pod once (stopped and started again on its volume);
 * 4. the mail server starts: the lead must arrive exactly once, and no page request may fail.
 *
 * Then the other design, measured: the outbox folder on a volume with `Recreate` (one pod, the
 * old one stopped before the new one starts), and how long the pages were down.
 *
 * What podman cannot do, the drill does as Kubernetes would, and no more: it turns the Redis
 * StatefulSet into a pod on a named volume (`data-<name>-0`), resolves `$(VAR)` in args and
 * env from the container's own variables (the kubelet's expansion), gives the Redis pod a
 * fixed address and the site's pods a host alias for its Service name (the Service's stable
 * address), and plays the endpoints and the preStop pause. Every other field is the chart's.
 * Needs the engine of tests/containers/engine.sh, the site's image and the Valkey stand-in
 * (tests/containers/valkey); `node tests/deploy/drill.ts <image> <helm binary> [chart]`. With a
 * chart (a release's, pulled from its registry), the image is the one its defaults name, and
 * the drill fails unless that is <image>; without one, it installs ./helm with <image>.
 */
import { execFileSync, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import type { PodSpec } from 'kubernetes-types/core/v1.js'
import { parseAllDocuments, stringify } from 'yaml'
import { freePort } from '#tests/helpers/net.ts'
import { startSmtpServer } from '#tests/helpers/smtp.ts'

const [image, helmBinary, releasedChart] = process.argv.slice(2)
if (!image || !helmBinary) throw new Error('usage: drill.ts <image> <helm binary> [chart]')
const VALKEY = process.env.TEST_VALKEY_IMAGE ?? 'localhost/modernwerk-test/valkey:1'
const ROOT = join(import.meta.dirname, '..', '..')
// Names of this run's own (release, network, pods, volumes, secrets): a run killed before its
// cleanup leaves its objects behind, and the next run on the machine must neither collide with
// them nor wait on them (sweepLeftovers removes those of runs no longer alive).
const RELEASE = `drill-${process.pid}`
const NETWORK = `modernwerk-drill-${process.pid}`
const work = mkdtempSync(join(tmpdir(), 'modernwerk-drill-'))
const createdSecrets: string[] = []
const started = Date.now()

const log = (message: string) =>
  console.log(`[drill] ${((Date.now() - started) / 1000).toFixed(1).padStart(5)} s  ${message}`)

/** Longest a podman command may take: a stuck one fails the drill instead of holding CI. */
const PODMAN_TIMEOUT_MS = 5 * 60_000

function podman(args: string[], timeoutMs = PODMAN_TIMEOUT_MS): string {
  const result = spawnSync('podman', args, {
    encoding: 'utf8',
    timeout: timeoutMs,
    killSignal: 'SIGKILL',
  })
  if (result.error) throw new Error(`podman ${args.join(' ')}: ${result.error.message}`)
  if (result.status !== 0) {
    throw new Error(`podman ${args.join(' ')}: ${result.stderr.trim() || result.stdout.trim()}`)
  }
  return result.stdout.trim()
}

/** A cleanup step: its failure is not the drill's, and it may not hang either. */
function quietly(args: string[]) {
  spawnSync('podman', args, { stdio: 'ignore', timeout: 60_000, killSignal: 'SIGKILL' })
}

/** A listing's lines; none when podman fails or takes longer than a minute. */
function lines(args: string[]): string[] {
  const result = spawnSync('podman', args, { encoding: 'utf8', timeout: 60_000 })
  return result.status === 0 ? result.stdout.split('\n').filter(Boolean) : []
}

/** What earlier drills on this machine left when they were killed before their cleanup. */
function sweepLeftovers() {
  for (const name of lines(['network', 'ls', '--format', '{{.Name}}'])) {
    const pid = Number(/^modernwerk-drill-(\d+)$/.exec(name)?.[1])
    if (!pid || pid === process.pid || isAlive(pid)) continue
    const release = new RegExp(`(^|-)drill-${pid}-`)
    for (const pod of lines(['pod', 'ps', '-q', '--filter', `label=drill=drill-${pid}`]))
      quietly(['pod', 'rm', '-f', pod])
    for (const volume of lines(['volume', 'ls', '--format', '{{.Name}}']))
      if (release.test(volume)) quietly(['volume', 'rm', '-f', volume])
    for (const secret of lines(['secret', 'ls', '--format', '{{.Name}}']))
      if (release.test(secret)) quietly(['secret', 'rm', secret])
    quietly(['network', 'rm', '-f', name])
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0)
    return true
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'
  }
}

type Manifest = {
  apiVersion: string
  kind: string
  metadata: { name: string; labels?: Record<string, string> }
  spec?: { template?: { metadata?: object; spec: PodSpec } }
  data?: Record<string, string>
}

/** The chart rendered with these values, as `helm install` would render it. */
function render(values: string[]): Manifest[] {
  const output = execFileSync(
    helmBinary as string,
    ['template', RELEASE, releasedChart ?? join(ROOT, 'helm'), ...values],
    {
      encoding: 'utf8',
    },
  )
  return parseAllDocuments(output)
    .map((document) => document.toJS() as Manifest | null)
    .filter((manifest): manifest is Manifest => manifest !== null)
}

function find(manifests: Manifest[], kind: string): Manifest {
  const found = manifests.find((manifest) => manifest.kind === kind)
  if (!found) throw new Error(`the chart rendered no ${kind}`)
  return found
}

/** The Secrets as podman secrets (podman 4 reads a Secret's `data` map as JSON). */
function createSecrets(manifests: Manifest[]): Map<string, Record<string, string>> {
  const secrets = new Map<string, Record<string, string>>()
  for (const secret of manifests.filter((manifest) => manifest.kind === 'Secret')) {
    const data = secret.data ?? {}
    secrets.set(secret.metadata.name, data)
    // The folder design's render names the same Secrets as the defaults' render.
    quietly(['secret', 'rm', secret.metadata.name])
    createdSecrets.push(secret.metadata.name)
    const file = join(work, `${secret.metadata.name}.json`)
    writeFileSync(file, JSON.stringify(data), { mode: 0o600 })
    podman(['secret', 'create', secret.metadata.name, file])
    rmSync(file)
  }
  return secrets
}

/** `$(NAME)` in args and env values as the kubelet expands it, from the container's variables. */
function expandVariables(spec: PodSpec, secrets: Map<string, Record<string, string>>) {
  for (const container of spec.containers) {
    const known = new Map<string, string>()
    for (const variable of container.env ?? []) {
      const ref = variable.valueFrom?.secretKeyRef
      const encoded = ref?.name ? secrets.get(ref.name)?.[ref.key] : undefined
      if (encoded !== undefined) known.set(variable.name, Buffer.from(encoded, 'base64').toString())
      if (variable.value !== undefined) {
        variable.value = variable.value.replace(
          /\$\((\w+)\)/g,
          (all, name: string) => known.get(name) ?? all,
        )
        known.set(variable.name, variable.value)
      }
    }
    container.args = container.args?.map((arg) =>
      arg.replace(/\$\((\w+)\)/g, (all, name: string) => known.get(name) ?? all),
    )
  }
}

/**
 * Plays one pod of `template` under `name` (and the ConfigMaps it reads); resolves its
 * address. Without the containers' ports (podman would publish each on the host, where two
 * pods' would collide) and probes (the drill asks `/readyz` itself, as the readiness probe
 * does; Redis's answer to PING likewise).
 */
function play(name: string, template: PodSpec, configMaps: Manifest[], ip?: string): string {
  const spec = structuredClone(template)
  for (const container of spec.containers) {
    delete container.ports
    delete container.livenessProbe
    delete container.readinessProbe
    delete container.startupProbe
  }
  const pod = {
    apiVersion: 'v1',
    kind: 'Pod',
    metadata: { name, labels: { drill: RELEASE } },
    spec,
  }
  const file = join(work, `${name}.yaml`)
  writeFileSync(file, [...configMaps, pod].map((manifest) => stringify(manifest)).join('---\n'))
  podman(['kube', 'play', '--network', NETWORK, ...(ip ? ['--ip', ip] : []), file])
  return podman([
    'inspect',
    `${name}-${spec.containers[0]?.name}`,
    '--format',
    `{{(index .NetworkSettings.Networks "${NETWORK}").IPAddress}}`,
  ])
}

async function isReady(address: string): Promise<boolean> {
  try {
    const response = await fetch(`http://${address}:3000/readyz`, {
      signal: AbortSignal.timeout(2_000),
    })
    return response.status === 200
  } catch {
    return false
  }
}

async function until(what: string, check: () => Promise<boolean> | boolean, timeoutMs = 120_000) {
  const deadline = Date.now() + timeoutMs
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs / 1000} s`)
    await sleep(200)
  }
}

/** The Service: requests to the pods that are ready and not terminating, round robin. */
function service() {
  const endpoints: string[] = []
  const results = { ok: 0, failed: 0, latencies: [] as number[], failures: [] as string[] }
  let next = 0
  const state = { isRunning: true }
  const loop = (async () => {
    while (state.isRunning) {
      const address = endpoints[next++ % Math.max(1, endpoints.length)]
      if (address) {
        const sent = performance.now()
        try {
          // A visitor's browser waits longer than 5 s before it gives up: once in a CI run a
          // request to a ready pod got no answer for 5 s while podman set up a new pod's
          // network (the other 1,589 took 31 ms at p99). Such a wait is counted in the
          // latencies (max), not as a failure; a refused, reset or non-200 answer is one.
          const response = await fetch(`http://${address}:3000/de/services`, {
            signal: AbortSignal.timeout(15_000),
          })
          await response.arrayBuffer()
          if (response.status === 200) results.ok++
          else {
            results.failed++
            results.failures.push(`${response.status} from ${address}`)
          }
        } catch (error) {
          results.failed++
          results.failures.push(`${(error as Error).message} from ${address}`)
        }
        results.latencies.push(performance.now() - sent)
      }
      await sleep(50)
    }
  })()
  return {
    endpoints,
    results,
    async stop() {
      state.isRunning = false
      await loop
    },
  }
}

function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b)
  return (
    Math.round(
      (sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? 0) * 10,
    ) / 10
  )
}

/** A lead as a person's browser sends it (token, proof of work, the minimum age). */
function postLead(address: string): number {
  const output = execFileSync(
    process.execPath,
    [join(ROOT, 'tests/deploy/contact-post.ts'), `http://${address}:3000`],
    {
      encoding: 'utf8',
    },
  )
  return Number(output.trim())
}

/**
 * A pod's shutdown as the chart sets it: the preStop pause (its hook's `setTimeout`) and
 * `terminationGracePeriodSeconds`, in seconds.
 */
function shutdownTiming(spec: PodSpec): { preStopSeconds: number; graceSeconds: number } {
  const hook = spec.containers[0]?.lifecycle?.preStop?.exec?.command?.join(' ') ?? ''
  const pause = /setTimeout\(\(\) => \{\}, (\d+)\)/.exec(hook)?.[1]
  const graceSeconds = spec.terminationGracePeriodSeconds
  if (graceSeconds === undefined) throw new Error('the chart set no terminationGracePeriodSeconds')
  return { preStopSeconds: pause ? Number(pause) / 1000 : 0, graceSeconds }
}

/**
 * Terminates a pod as the kubelet does: out of the endpoints, the preStop pause, SIGTERM, and
 * a kill once the rest of the grace period is over (with the chart's default over 10 minutes,
 * room for the mail server's answer to a delivery in progress; a pod with none exits at once).
 */
async function terminate(
  name: string,
  address: string,
  endpoints: string[],
  { preStopSeconds, graceSeconds }: ReturnType<typeof shutdownTiming>,
) {
  const index = endpoints.indexOf(address)
  if (index >= 0) endpoints.splice(index, 1)
  await sleep(preStopSeconds * 1000)
  const stopSeconds = graceSeconds - preStopSeconds
  podman(['pod', 'stop', '-t', String(stopSeconds), name], (stopSeconds + 60) * 1000)
  podman(['pod', 'rm', '-f', name])
}

sweepLeftovers()
podman(['network', 'create', NETWORK])
const network = JSON.parse(podman(['network', 'inspect', NETWORK])) as {
  subnets: { subnet: string; gateway: string }[]
}[]
const subnet = network[0]?.subnets[0]
if (!subnet) throw new Error('the drill network has no subnet')
// The Redis pod's fixed address: its Service's, which stays when the pod is replaced.
const redisAddress = subnet.gateway.replace(/\.\d+$/, '.250')
// The mail server's address on the network's bridge: nothing listens there until step 4 (the
// bridge itself comes up with the first pod).
const smtpPort = await freePort()
const smtpUrl = `smtp://${subnet.gateway}:${smtpPort}`
let smtp: Awaited<ReturnType<typeof startSmtpServer>> | null = null
log(`network ${subnet.subnet}; the mail server ${smtpUrl} is down`)

const [repository, tag] = [
  image.slice(0, image.lastIndexOf(':')),
  image.slice(image.lastIndexOf(':') + 1),
]
const [valkeyRepository, valkeyTag] = [
  VALKEY.slice(0, VALKEY.lastIndexOf(':')),
  VALKEY.slice(VALKEY.lastIndexOf(':') + 1),
]
/** What a real install must set, and only that (docs/operations.md#what-a-production-install-must-set). */
const INSTALL = [
  ...(releasedChart ? [] : [`image.repository=${repository}`]),
  // Pulled (and verified) before the drill, or built here: nothing is pulled during it.
  'image.pullPolicy=Never',
  'httpRoute.enabled=true',
  'httpRoute.parentRefs[0].name=public',
  'httpRoute.hostnames[0]=www.modernwerk.example',
  `config.TRUST_PROXY=${subnet.subnet}`,
  'config.APP_BASE_URL=https://www.modernwerk.example',
  `secrets.smtpUrl=${smtpUrl}`,
  // Stand-ins for what no registry here serves: the site's image built here, Debian's Valkey.
  `redis.image.repository=${valkeyRepository}`,
  'redis.image.digest=',
  'redis.image.pullPolicy=Never',
]
  .flatMap((value) => ['--set', value])
  .concat(releasedChart ? [] : ['--set-string', `image.tag=${tag}`])
  .concat('--set-string', `redis.image.tag=${valkeyTag}`)

const playedPods: string[] = []
let volume = ''
let failed = false
try {
  const manifests = render(INSTALL)
  const deployment = find(manifests, 'Deployment')
  const statefulSet = find(manifests, 'StatefulSet')
  const configMaps = manifests.filter((manifest) => manifest.kind === 'ConfigMap')
  const replicas = Number((deployment.spec as { replicas?: number }).replicas)
  const secrets = createSecrets(manifests)
  log(
    `rendered the defaults: ${replicas} site pods, ${statefulSet.metadata.name} with its password Secret`,
  )
  const siteImage = deployment.spec?.template?.spec.containers[0]?.image
  if (siteImage !== image) throw new Error(`the chart runs ${siteImage}, not ${image}`)
  if (releasedChart) log(`the released chart's default image: ${siteImage}`)

  // Redis: the StatefulSet's pod on its claim's volume, at its Service's address.
  const redisSpec = structuredClone(statefulSet.spec?.template?.spec) as PodSpec
  volume = `data-${statefulSet.metadata.name}-0`
  podman(['volume', 'create', volume])
  redisSpec.volumes = [{ name: 'data', persistentVolumeClaim: { claimName: volume } }]
  expandVariables(redisSpec, secrets)
  const redisPod = `${statefulSet.metadata.name}-0`
  const startRedis = async () => {
    play(redisPod, redisSpec, [], redisAddress)
    playedPods.push(redisPod)
    await until('Redis answers PONG', () => {
      const answer = spawnSync('podman', ['exec', `${redisPod}-redis`, 'redis-cli', 'ping'], {
        encoding: 'utf8',
      })
      return answer.stdout.trim() === 'PONG'
    })
  }
  await startRedis()
  // Protected: a client without the password gets nothing.
  const stranger = spawnSync(
    'podman',
    ['exec', '-e', 'REDISCLI_AUTH=', `${redisPod}-redis`, 'redis-cli', 'ping'],
    {
      encoding: 'utf8',
    },
  )
  if (!/NOAUTH/.test(stranger.stdout + stranger.stderr)) {
    throw new Error(`Redis answered a client without its password: ${stranger.stdout}`)
  }
  log(`${redisPod} up at ${redisAddress}; without its password: ${stranger.stdout.trim()}`)

  // The site's pods: the Deployment's template, the Redis Service's name resolving to it.
  const siteSpec = () => {
    const spec = structuredClone(deployment.spec?.template?.spec) as PodSpec
    spec.hostAliases = [{ ip: redisAddress, hostnames: [statefulSet.metadata.name] }]
    expandVariables(spec, secrets)
    return spec
  }
  const traffic = service()
  let generation = 0
  const pods: { name: string; address: string }[] = []
  const startSitePod = async () => {
    const name = `${deployment.metadata.name}-${++generation}`
    const address = play(name, siteSpec(), configMaps)
    playedPods.push(name)
    await until(`${name} ready`, () => isReady(address))
    traffic.endpoints.push(address)
    return { name, address }
  }
  for (let i = 0; i < replicas; i++) pods.push(await startSitePod())
  log(`site pods ${pods.map((pod) => pod.name).join(', ')} ready; page requests every 50 ms`)
  // Every container as the chart's securityContext says: never root.
  const users = [...pods.map((pod) => `${pod.name}-web`), `${redisPod}-redis`].map((container) =>
    podman(['top', container, 'user']).split('\n').slice(1).join(' ').trim(),
  )
  if (users.some((user) => /\broot\b/.test(user)))
    throw new Error(`a container runs as root: ${users.join(', ')}`)
  log(`users: site ${users[0]}, Redis ${users.at(-1)}`)

  const status = postLead(pods[0]?.address ?? '')
  if (status !== 202) throw new Error(`the lead was answered ${status}, not 202`)
  log('a lead posted while the mail server is down: 202')

  const timing = shutdownTiming(siteSpec())
  for (const round of [1, 2]) {
    for (let i = 0; i < replicas; i++) {
      const old = pods.shift()
      if (!old) break
      const fresh = await startSitePod()
      await terminate(old.name, old.address, traffic.endpoints, timing)
      pods.push(fresh)
    }
    log(`rollout ${round}: the site's pods are now ${pods.map((pod) => pod.name).join(', ')}`)
  }
  podman(['pod', 'stop', '-t', '30', redisPod])
  podman(['pod', 'rm', '-f', redisPod])
  await startRedis()
  log(`${redisPod} stopped and started again on ${volume}`)

  const mails = await startSmtpServer(smtpPort, subnet.gateway)
  smtp = mails
  log('the mail server is up')
  await until('the lead arrives', () => mails.received.length > 0, 180_000)
  // Long enough for any second copy: a retry, another pod's worker.
  await sleep(5_000)
  await traffic.stop()
  const ids = mails.received.map((mail) => /^X-Contact-Id: (.+)$/im.exec(mail.raw)?.[1]?.trim())
  log(`leads received: ${mails.received.length} (${ids.join(', ')})`)
  const { ok, failed: failedPages, latencies, failures } = traffic.results
  log(
    `pages: ${ok + failedPages} requests, ${failedPages} failed, p50 ${percentile(latencies, 50)} ms, p99 ${percentile(latencies, 99)} ms, max ${percentile(latencies, 100)} ms`,
  )
  if (mails.received.length !== 1)
    throw new Error(`the lead arrived ${mails.received.length} times, not once`)
  if (failedPages > 0)
    throw new Error(`${failedPages} page requests failed: ${failures.slice(0, 5).join('; ')}`)
  for (const name of playedPods.splice(0)) quietly(['pod', 'rm', '-f', name])

  // The other design, measured: one pod, its outbox folder on a volume, Recreate.
  const folderManifests = render([
    ...INSTALL,
    ...[
      'redis.enabled=false',
      'replicaCount=1',
      'persistence.enabled=true',
      'updateStrategy.type=Recreate',
    ].flatMap((value) => ['--set', value]),
  ])
  const folderDeployment = find(folderManifests, 'Deployment')
  const folderSecrets = createSecrets(folderManifests)
  const folderSpec = structuredClone(folderDeployment.spec?.template?.spec) as PodSpec
  expandVariables(folderSpec, folderSecrets)
  const claim = folderSpec.volumes?.find((entry) => entry.persistentVolumeClaim)
    ?.persistentVolumeClaim?.claimName
  if (claim) podman(['volume', 'create', claim])
  const recreate = service()
  const startFolderPod = async (round: number) => {
    const name = `${folderDeployment.metadata.name}-recreate-${round}`
    const configMaps = folderManifests.filter((manifest) => manifest.kind === 'ConfigMap')
    const address = play(name, folderSpec, configMaps)
    playedPods.push(name)
    await until(`${name} ready`, () => isReady(address))
    recreate.endpoints.push(address)
    return { name, address }
  }
  const first = await startFolderPod(1)
  await sleep(1_000)
  const stopping = Date.now()
  const folderTiming = shutdownTiming(folderSpec)
  await terminate(first.name, first.address, recreate.endpoints, folderTiming)
  await startFolderPod(2)
  const downtime = (Date.now() - stopping) / 1000
  await sleep(1_000)
  await recreate.stop()
  log(
    `Recreate, for comparison (the folder on a volume, one pod): no pod served pages for ${downtime.toFixed(1)} s of the rollout (${folderTiming.preStopSeconds} s preStop pause, the stop, the new pod's start)`,
  )
  if (claim) quietly(['volume', 'rm', '-f', claim])
  log(`passed in ${Math.round((Date.now() - started) / 1000)} s`)
} catch (error) {
  failed = true
  console.error(`[drill] FAIL: ${(error as Error).message}`)
  for (const name of playedPods) {
    const logs = spawnSync('podman', ['pod', 'logs', '--tail', '15', name], { encoding: 'utf8' })
    console.error(`[drill] ${name}:\n${logs.stdout}${logs.stderr}`)
  }
} finally {
  await smtp?.stop()
  for (const name of playedPods) quietly(['pod', 'rm', '-f', name])
  if (volume) quietly(['volume', 'rm', '-f', volume])
  for (const name of createdSecrets) quietly(['secret', 'rm', name])
  quietly(['network', 'rm', '-f', NETWORK])
  rmSync(work, { recursive: true, force: true })
}
process.exit(failed ? 1 : 0)
