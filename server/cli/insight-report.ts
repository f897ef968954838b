// `npm run report -- --prometheus URL [--selector 'namespace="web"'] [--days 7,30]
// [--until 2026-11-30T00:00:00Z]`: the insight figures
// (docs/insight.md#insight-which-pages-bring-leads) for the last 7 and 30 days (up to now, or to
// `--until`), read from the Prometheus that scrapes the site, printed as text for someone without
// Grafana. `PROMETHEUS_URL` may stand in for `--prometheus`. Reads only aggregate counters; there
// is nothing about a visitor to read.
import { parseArgs } from 'node:util'
import { z } from 'zod'
import {
  formatFigures,
  insightFigures,
  prometheusQuery,
  SELECTOR,
} from '#server/services/insight/index.ts'

const USAGE =
  'Usage: npm run report -- --prometheus URL [--selector \'namespace="web"\'] [--days 7,30] [--until ISO-TIME]'
const DAYS = '--days must be whole days from 1 to 365, separated by commas'

const ArgsSchema = z.object({
  prometheus: z.url({ protocol: /^https?$/, error: '--prometheus must be an http(s) URL' }),
  selector: z
    .string()
    .regex(SELECTOR, '--selector must be label matchers, e.g. namespace="web", service="website"')
    .default(''),
  days: z
    .string()
    .default('7,30')
    .transform((list) => list.split(',').map((part) => Number(part.trim())))
    .pipe(z.array(z.number(DAYS).int(DAYS).min(1, DAYS).max(365, DAYS)).min(1, DAYS)),
  until: z.iso
    .datetime({ offset: true, error: '--until must be an ISO time, e.g. 2026-11-30T00:00:00Z' })
    .transform((time) => new Date(time))
    .optional(),
})

function fail(message: string): never {
  console.error(`${message}\n${USAGE}`)
  process.exit(2)
}

let args: z.output<typeof ArgsSchema>
try {
  const { values } = parseArgs({
    options: {
      prometheus: { type: 'string' },
      selector: { type: 'string' },
      days: { type: 'string' },
      until: { type: 'string' },
    },
    strict: true,
  })
  const parsed = ArgsSchema.safeParse({
    ...values,
    prometheus: values.prometheus ?? process.env.PROMETHEUS_URL,
  })
  if (!parsed.success) {
    fail([...new Set(parsed.error.issues.map((issue) => issue.message))].join('\n'))
  }
  args = parsed.data
} catch (error) {
  fail((error as Error).message)
}

const until = args.until ?? new Date()
const query = prometheusQuery(new URL(args.prometheus), until)
try {
  for (const [index, days] of args.days.entries()) {
    const figures = await insightFigures(query, { days, until, selector: args.selector })
    console.log(`${index > 0 ? '\n\n' : ''}${formatFigures(figures)}`)
  }
} catch (error) {
  console.error(`The figures could not be read: ${(error as Error).message}`)
  process.exit(1)
}
