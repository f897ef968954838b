import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import {
  anchorsOf,
  citationsOf,
  headingSlug,
  linkProblem,
  linksOf,
  uncitedDecisions,
} from '#scripts/lib/doc-links.ts'

// The docs' link check (`npm run docs:check`) on a small tree of its own: what it must find.
const root = mkdtempSync(join(tmpdir(), 'doc-links-'))
mkdirSync(join(root, 'docs', 'decisions'), { recursive: true })
writeFileSync(
  join(root, 'docs', 'contact.md'),
  "# Contact\n\n## The forms' key: restarts, replicas, rotation\n\n## Spam defence\n\n```md\n## Not a heading\n```\n\n## Spam defence\n",
)
writeFileSync(join(root, 'docs', 'decisions', 'quarantine.md'), '# A quarantine\n')
writeFileSync(join(root, 'README.md'), '# Site\n')
afterAll(() => rmSync(root, { recursive: true, force: true }))

const from = join(root, 'docs', 'contact.md')
/** A decision record's path, built so that the docs check does not read it as a citation. */
const decision = (name: string) => `docs/decisions/${name}.md`

describe('the docs link check', () => {
  it('gives headings the anchors GitHub and GitLab give them', () => {
    expect(headingSlug("The forms' key: restarts, replicas, rotation")).toBe(
      'the-forms-key-restarts-replicas-rotation',
    )
    expect(headingSlug('`CDN_URL` and [Security](security.md)')).toBe('cdn_url-and-security')
    expect([...anchorsOf('## Spam defence\n```\n## Code\n```\n## Spam defence\n')]).toEqual([
      'spam-defence',
      'spam-defence-1',
    ])
  })

  it('accepts links that reach a file and a heading', () => {
    expect(linkProblem(root, from, 'decisions/quarantine.md')).toBeUndefined()
    expect(linkProblem(root, from, '#spam-defence-1')).toBeUndefined()
    expect(linkProblem(root, from, '../README.md#site')).toBeUndefined()
  })

  it.each([
    ['decisions/quarantine-folder.md', 'no such file'],
    ['#spam', 'no such heading'],
    ['contact.md#not-a-heading', 'no such heading'],
    ['../../elsewhere.md', 'outside the repository'],
  ])('finds %s broken: %s', (target, problem) => {
    expect(linkProblem(root, from, target)).toContain(problem)
  })

  it('reads the links of prose, not of code', () => {
    const markdown = [
      'See [the key](contact.md#spam-defence) and [ref]: decisions/quarantine.md',
      '`[not](a-link.md)` and [a site](https://example.org/x.md)',
      '```',
      '[inside](a-fence.md)',
      '```',
      '[ref]: decisions/quarantine.md',
    ].join('\n')
    expect(linksOf(markdown)).toEqual([
      { line: 1, target: 'contact.md#spam-defence' },
      { line: 6, target: 'decisions/quarantine.md' },
    ])
  })

  it("reads the code's citations of the docs", () => {
    const code =
      "// kept (docs/contact.md#quarantine), see helm/README.md#alerts\nconst x = 'a/docs/x.md'\n"
    expect(citationsOf(code)).toEqual([
      { line: 1, target: 'docs/contact.md#quarantine' },
      { line: 1, target: 'helm/README.md#alerts' },
    ])
    // A decision record's path, without an anchor, resolved from the repository's root.
    const cited = citationsOf(`// kept (${decision('quarantine')}), ${decision('quarantin')}`)
    expect(cited.map(({ target }) => target)).toEqual([
      decision('quarantine'),
      decision('quarantin'),
    ])
    const fromRoot = join(root, 'package.json')
    expect(linkProblem(root, fromRoot, decision('quarantine'))).toBeUndefined()
    expect(linkProblem(root, fromRoot, decision('quarantin'))).toContain('no such file')
  })

  it('finds the decision records no code cites, the superseded ones left out', () => {
    const record = (status: string) => `# A record\n\nDate: 2026-11-27. Status: ${status}.\n`
    const files = new Map([
      ['docs/decisions/README.md', '# Decision records\n'],
      [decision('kept'), record('accepted')],
      [decision('named-in-docs'), record('accepted')],
      [decision('linked'), record('accepted')],
      [decision('replaced'), record('superseded by\n[a newer record](newer.md)')],
      [
        decision('newer'),
        `${record('accepted')}\n## Context\n\nStatus: superseded is not its header.\n`,
      ],
      ['docs/contact.md', `The records: ${decision('named-in-docs')}, ${decision('newer')}`],
      ['README.md', `See ${decision('named-in-docs')}.`],
      ['server/quarantine.ts', `// Kept, not dropped (${decision('kept')}).\n`],
      ['helm/README.md', `The solver: [proof of work](../${decision('linked')}).`],
    ])
    expect(uncitedDecisions(files)).toEqual([decision('named-in-docs'), decision('newer')])
  })
})
