// `npm run i18n:keys` (in `npm run check`): i18next-cli's checks of the keys the code reads
// against the locale files (i18next.config.ts), printed short: per language the keys missing
// (every plural form it needs), then the keys of the files no code reads. Exits 1 on either.
// The tool ends with `process.exit`, which cuts off what it wrote into a pipe, so its output
// goes to a file first.
import { spawnSync } from 'node:child_process'
import { mkdtempSync, openSync, readFileSync, rmSync, closeSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { stripVTControlCharacters } from 'node:util'
import { LOCALES } from '#shared/locales.ts'

const CLI = join(import.meta.dirname, '..', 'node_modules', 'i18next-cli', 'dist', 'esm', 'cli.js')

/** `i18next-cli <args>`: its exit code and its output, complete and without colours. */
export function i18nextCli(args: readonly string[], cwd = process.cwd()) {
  const dir = mkdtempSync(join(tmpdir(), 'i18next-cli-'))
  const path = join(dir, 'output')
  const out = openSync(path, 'w')
  try {
    const run = spawnSync(process.execPath, [CLI, ...args], {
      cwd,
      stdio: ['ignore', out, out],
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '0', CI: 'true' },
    })
    return { code: run.status ?? 1, output: stripVTControlCharacters(readFileSync(path, 'utf8')) }
  } finally {
    closeSync(out)
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The lines that say something: totals, findings and the namespace or file they are in. */
function findings(output: string): string[] {
  const shown: string[] = []
  let heading: string | undefined
  for (const line of output.split('\n')) {
    if (/^Namespace: |^\[\w+\/[\w-]+\]/.test(line)) heading = line.replace(/ \/.*$/, '')
    else if (/✗/.test(line)) {
      if (heading) shown.push(heading)
      heading = undefined
      shown.push(line)
    } else if (/^(Key Status for|Summary:|✖ Error)/.test(line)) {
      // Never `extract`, which the tool suggests: it writes lists back as objects.
      shown.push(line.replace(/ Run "?(npx )?i18next-cli extract"?.*$/, ''))
    } else if (/^Overall:/.test(line)) shown.push(line.replace(/\[[■□]+\]\s*/, ''))
  }
  return shown
}

export function checkKeys(cwd?: string): { ok: boolean; report: string } {
  const runs = [
    ...LOCALES.map((locale) => ['status', locale, '--hide-translated']),
    ['status', '--unused'],
  ].map((args) => i18nextCli(args, cwd))
  return {
    ok: runs.every((run) => run.code === 0),
    // A run that failed without a finding (the configuration broke) shows all it said.
    report: runs
      .flatMap((run) => {
        const found = findings(run.output)
        return run.code !== 0 && !found.some((line) => line.includes('✗')) ? [run.output] : found
      })
      .join('\n'),
  }
}

if (import.meta.main) {
  const { ok, report } = checkKeys()
  console.log(report)
  process.exitCode = ok ? 0 : 1
}
