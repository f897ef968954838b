import { spawn, spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { eventually } from './eventually.ts'
import { freePort } from './net.ts'

/**
 * A real Prometheus (Debian's) holding counters written into its storage with promtool
 * (`tsdb create-blocks-from openmetrics`): the insight figures' tests read from it.
 */

export const HAS_PROMETHEUS =
  spawnSync('prometheus', ['--version']).status === 0 &&
  spawnSync('promtool', ['--version']).status === 0

/** One sample an hour. (promtool writes a block per two hours, reading the file for each.) */
const STEP_S = 3600
/** Hours in a week: the steps of one week. */
export const WEEK_STEPS = (7 * 86_400) / STEP_S

export type Series = {
  family: string
  /** The labels as the exposition writes them: `page="home",locale="en"`. */
  labels: string
  /** How much the counter grows in the step that ends `stepsAgo` steps before the end. */
  growth: (stepsAgo: number) => number
  /** Steps ago the process restarted (the counter starts again from 0). */
  restartAt?: number
}

/** The series as OpenMetrics text with timestamps, `days` back from `endS`, oldest first. */
function openMetrics(series: readonly Series[], endS: number, days: number): string {
  const steps = (days * 86_400) / STEP_S
  const lines: string[] = []
  for (const family of new Set(series.map((one) => one.family))) {
    lines.push(`# TYPE ${family} counter`)
    for (const one of series.filter((candidate) => candidate.family === family)) {
      let value = 0
      for (let ago = steps; ago >= 0; ago--) {
        if (ago < steps) value += one.growth(ago)
        if (ago === one.restartAt) value = one.growth(ago)
        lines.push(`${family}_total{${one.labels}} ${value} ${endS - ago * STEP_S}`)
      }
    }
  }
  return `${lines.join('\n')}\n# EOF\n`
}

/**
 * Prometheus serving `series` for the `days` (61: room for 30 days and the 30 before) up to
 * `endS` (epoch seconds). Ready when this resolves; `stop()` ends it and removes its files.
 */
export async function startPrometheus(series: readonly Series[], endS: number, days = 61) {
  const work = mkdtempSync(join(tmpdir(), 'prometheus-'))
  writeFileSync(join(work, 'series.om'), openMetrics(series, endS, days))
  writeFileSync(join(work, 'prometheus.yml'), 'global:\n  scrape_interval: 1h\n')
  // -q: printing each block takes four times as long as writing it.
  const made = spawnSync(
    'promtool',
    [
      'tsdb',
      'create-blocks-from',
      'openmetrics',
      '-q',
      join(work, 'series.om'),
      join(work, 'data'),
    ],
    { encoding: 'utf8' },
  )
  if (made.status !== 0) throw new Error(`promtool: ${made.stderr}`)
  const port = await freePort()
  const url = `http://127.0.0.1:${port}`
  const server = spawn(
    'prometheus',
    [
      `--config.file=${join(work, 'prometheus.yml')}`,
      `--storage.tsdb.path=${join(work, 'data')}`,
      '--storage.tsdb.retention.time=10y',
      `--web.listen-address=127.0.0.1:${port}`,
    ],
    { stdio: 'ignore' },
  )
  // Ready once it has loaded the blocks.
  await eventually(
    () =>
      fetch(`${url}/-/ready`).then(
        (response) => response.ok,
        () => false,
      ),
    60_000,
  )
  return {
    url,
    stop() {
      server.kill()
      rmSync(work, { recursive: true, force: true })
    },
  }
}
