// The memory a pod of the chart gives the server, for the measuring scripts: a replica runs in
// a container whose memory limit is `resources.limits.memory` (helm/values.yaml), and Node.js
// sizes V8's heap from that limit (`process.constrainedMemory()`): 259 MB of heap in 384 MiB
// against 4 GB on a host with 24 GiB. A bench on the bare host measures a heap no replica has,
// so the bench runs our server in a memory cgroup of the chart's limit, as Kubernetes does.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readFileSync, rmdirSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { parse } from 'yaml'
import { ROOT } from './processes.ts'

const UNITS: Record<string, number> = {
  Ki: 1 / 1024,
  Mi: 1,
  Gi: 1024,
  K: 1e3 / 2 ** 20,
  M: 1e6 / 2 ** 20,
  G: 1e9 / 2 ** 20,
}

/** A Kubernetes quantity of memory (`384Mi`, `1Gi`, `500M`) in MiB. */
export function quantityMiB(quantity: string): number {
  const match = /^(\d+(?:\.\d+)?)(Ki|Mi|Gi|K|M|G)?$/.exec(quantity.trim())
  if (!match) throw new Error(`not a memory quantity: ${quantity}`)
  const unit = match[2]
  return unit ? Number(match[1]) * (UNITS[unit] ?? 1) : Number(match[1]) / 2 ** 20
}

/** The app container's memory limit in the chart's defaults, in MiB. */
export function chartMemoryLimitMiB(): number {
  const values = parse(readFileSync(join(ROOT, 'helm', 'values.yaml'), 'utf8')) as {
    resources?: { limits?: { memory?: string } }
  }
  const limit = values.resources?.limits?.memory
  if (!limit) throw new Error('helm/values.yaml has no resources.limits.memory')
  return quantityMiB(limit)
}

export type MemoryCgroup = {
  mib: number
  /** Writing a process id here moves that process into the group. */
  procs: string
  remove: () => void
}

/**
 * A memory cgroup with this limit, or the reason there is none: it needs root and a writable
 * cgroup hierarchy (cgroup v2 with the memory controller, or v1's memory hierarchy).
 */
export function memoryCgroup(mib: number): MemoryCgroup | string {
  const name = `modernwerk-bench-${process.pid}`
  const bytes = String(Math.round(mib * 2 ** 20))
  const candidates = [
    { root: '/sys/fs/cgroup', limitFile: 'memory.max', controllers: 'cgroup.subtree_control' },
    { root: '/sys/fs/cgroup/memory', limitFile: 'memory.limit_in_bytes', controllers: null },
  ]
  const reasons: string[] = []
  for (const { root, limitFile, controllers } of candidates) {
    try {
      if (controllers) {
        const enabled = existsSync(join(root, controllers))
          ? readFileSync(join(root, controllers), 'utf8')
          : ''
        if (!/\bmemory\b/.test(enabled)) throw new Error('no memory controller')
      } else if (!existsSync(join(root, 'memory.limit_in_bytes'))) {
        throw new Error('no v1 memory hierarchy')
      }
      const dir = join(root, name)
      mkdirSync(dir)
      writeFileSync(join(dir, limitFile), bytes)
      return {
        mib,
        procs: join(dir, 'cgroup.procs'),
        remove: () => {
          try {
            rmdirSync(dir)
          } catch {
            // a process is still in it: the kernel removes nothing in use
          }
        },
      }
    } catch (error) {
      reasons.push(`${root}: ${(error as Error).message}`)
    }
  }
  return reasons.join('; ')
}

/** `[command, args]` that starts `command` inside the group, keeping its process id (exec). */
export function inCgroup(group: MemoryCgroup, command: string, args: string[]): [string, string[]] {
  return ['sh', ['-c', 'echo $$ > "$0" && exec "$@"', group.procs, command, ...args]]
}

/** V8's heap limit in MB of a Node.js process started in the group (as the server's). */
export function heapLimitIn(group: MemoryCgroup): number {
  const [command, args] = inCgroup(group, process.execPath, [
    '-p',
    'require("node:v8").getHeapStatistics().heap_size_limit',
  ])
  return Number(execFileSync(command, args, { encoding: 'utf8' }).trim()) / 2 ** 20
}
