/**
 * A sample's value in a Prometheus exposition (`name{labels}` as /metrics writes it), or
 * undefined while there is no such line (a counter not counted yet).
 */
export function sampleIn(exposition: string, sample: string): number | undefined {
  const line = exposition.split('\n').find((candidate) => candidate.startsWith(`${sample} `))
  return line === undefined ? undefined : Number(line.slice(sample.length + 1))
}

/**
 * The sum of a metric's samples in an exposition, over every series whose labels include all
 * of `labels` (all of its series without).
 */
export function sumOf(exposition: string, name: string, labels: Record<string, string> = {}) {
  const wanted = Object.entries(labels).map(([label, value]) => `${label}="${value}"`)
  return exposition
    .split('\n')
    .filter((line) => line.startsWith(`${name}{`))
    .filter((line) => wanted.every((pair) => line.includes(pair)))
    .reduce((sum, line) => sum + Number(line.slice(line.lastIndexOf(' ') + 1)), 0)
}
