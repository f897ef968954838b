/**
 * A sample's value in a Prometheus exposition (`name{labels}` as /metrics writes it), or
 * undefined while there is no such line (a counter not counted yet).
 */
export function sampleIn(exposition: string, sample: string): number | undefined {
  const line = exposition.split('\n').find((candidate) => candidate.startsWith(`${sample} `))
  return line === undefined ? undefined : Number(line.slice(sample.length + 1))
}
