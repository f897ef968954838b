// i18next-cli (the i18next project's tool, `npm run i18n:keys`) compares the keys the code reads
// with the locale files, both ways, with the plugin that tells it what the tables decide
// (scripts/lib/i18n-key-plugin.ts). Run on a copy of the sources, as they are and broken: a key
// no code reads, a key the code reads gone from English, a Polish plural form missing.
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { checkKeys, i18nextCli } from '#scripts/i18n-keys.ts'
import { canonicalLocaleJson } from '#scripts/lib/locale-json.ts'
import { copySources } from '#tests/helpers/source-copy.ts'

let dir: string | undefined
afterEach(() => {
  if (dir) rmSync(dir, { recursive: true, force: true })
  dir = undefined
})

/** A copy of the sources, with the edits made to its locale files. */
function project(edit: (file: (path: string, change: (tree: Tree) => void) => void) => void) {
  const root = copySources('i18next-cli-')
  dir = root
  edit((path, change) => {
    const file = join(root, 'locales', path)
    const tree = JSON.parse(readFileSync(file, 'utf8')) as Tree
    change(tree)
    writeFileSync(file, canonicalLocaleJson(JSON.stringify(tree)))
  })
  return root
}

type Tree = { [key: string]: unknown }
const branch = (tree: Tree, path: string) =>
  path.split('.').reduce((node, key) => node[key] as Tree, tree)

/** `i18next-cli status …` in a folder, as `npm run i18n:keys` runs it. */
const status = (cwd: string, ...args: string[]) => i18nextCli(['status', ...args], cwd)

// Each test runs the tool over a copy of the whole project: seconds on an idle machine, far
// longer on a busy one (a time limit of its own, not the default 20 s).
describe('i18next-cli', { timeout: 180_000 }, () => {
  it('finds every key the code reads and no key it does not read', () => {
    const { ok, report } = checkKeys(project(() => {}))
    expect(report).toMatch(/Key Status for "pl":\nOverall: 100% \((\d+)\/\1\)/)
    expect(report).toContain('No unused keys found')
    expect(ok, report).toBe(true)
  })

  it('fails on a key no code reads', () => {
    const cwd = project((file) => {
      for (const locale of ['en', 'de', 'pl'])
        file(`${locale}/home.json`, (tree) => {
          branch(tree, 'hero').retired = 'A headline nobody shows'
        })
    })
    const { code, output } = status(cwd, 'en', '--unused')
    expect(output).toMatch(/\[en\/home\][^[]*hero\.retired/)
    expect(code).toBe(1)
  })

  it('fails on a key the code reads, gone from English', () => {
    const cwd = project((file) => {
      file('en/contact.json', (tree) => {
        delete branch(tree, 'form').intro
      })
    })
    const { code, output } = status(cwd, 'en')
    expect(output).toMatch(/✗ form\.intro\s+\(absent\)/)
    expect(code).toBe(1)
  })

  it('fails on keys the tables decide: a team member without a role, with a text no page shows', () => {
    const cwd = project((file) => {
      file('en/team.json', (tree) => {
        const member = branch(tree, 'members.jonasWeber')
        delete member.role
        member.hobby = 'Sailing on the Baltic'
      })
    })
    const missing = status(cwd, 'en')
    expect(missing.output).toMatch(/✗ members\.jonasWeber\.role\s+\(absent\)/)
    expect(missing.code).toBe(1)
    const unused = status(cwd, 'en', '--unused')
    expect(unused.output).toMatch(/\[en\/team\][^[]*members\.jonasWeber\.hobby/)
    expect(unused.output).not.toMatch(/members\.jonasWeber\.(bio|skills|teaser)/)
    expect(unused.code).toBe(1)
  })

  it('fails, naming it, when a rewrite of the configuration no longer applies', () => {
    const cwd = project(() => {})
    const page = join(cwd, 'client', 'pages', 'service-page.tsx')
    writeFileSync(page, readFileSync(page, 'utf8').replaceAll('useServiceTexts', 'useServiceCopy'))
    const { ok, report } = checkKeys(cwd)
    expect(report).toContain('service-page.tsx no longer has `const t = useServiceTexts(service)`')
    expect(ok).toBe(false)
  })

  it('fails on a Polish text without its "few" form', () => {
    const cwd = project((file) => {
      file('pl/common.json', (tree) => {
        delete branch(tree, 'legal.periods').days_few
      })
    })
    const { code, output } = status(cwd, 'pl')
    expect(output).toMatch(/✗ legal\.periods\.days_few/)
    expect(code).toBe(1)
  })
})
