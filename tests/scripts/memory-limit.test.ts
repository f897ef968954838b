// The bench runs our server with the memory a pod of the chart gives it (scripts/lib/memory-limit.ts):
// the limit is read from the chart, and a process started in the group sees that limit, as
// Node.js sees its container's.
import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import {
  chartMemoryLimitMiB,
  inCgroup,
  memoryCgroup,
  quantityMiB,
} from '#scripts/lib/memory-limit.ts'

describe("the chart's memory limit, for the bench", () => {
  it('reads Kubernetes quantities in MiB', () => {
    expect(quantityMiB('384Mi')).toBe(384)
    expect(quantityMiB('1Gi')).toBe(1024)
    expect(quantityMiB('2048Ki')).toBe(2)
    expect(quantityMiB('500M')).toBeCloseTo(476.8, 1)
    expect(quantityMiB(String(256 * 2 ** 20))).toBe(256)
    expect(() => quantityMiB('384 MB')).toThrow(/not a memory quantity/)
  })

  it("is the app container's limit in helm/values.yaml", () => {
    const limit = chartMemoryLimitMiB()
    expect(limit).toBeGreaterThanOrEqual(256)
    expect(limit).toBeLessThanOrEqual(1024)
  })

  const group = memoryCgroup(300)
  it.skipIf(typeof group === 'string')(
    'starts a process that sees the limit as its memory, as in a pod',
    () => {
      if (typeof group === 'string') return
      try {
        const [command, args] = inCgroup(group, process.execPath, [
          '-p',
          'process.constrainedMemory() / 2 ** 20',
        ])
        expect(Number(execFileSync(command, args, { encoding: 'utf8' }).trim())).toBe(300)
      } finally {
        group.remove()
      }
    },
  )
  if (typeof group === 'string') {
    console.log(`skipped: no memory cgroup on this machine (${group}); the bench says the same`)
  }
})
