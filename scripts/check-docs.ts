// `npm run docs:check` (in `npm run check`): every relative link of the README and docs/ (the
// chart's README included) reaches a file of the repository and, with an anchor, one of its
// headings; every place the code cites the docs (`docs/contact.md#quarantine`) does too; no
// code cites the README by section name any more (the sections live in docs/); every decision
// record but a superseded one is cited by its path (`docs/decisions/<name>.md`) from a file
// outside docs/ and the README, the code it shapes. Exits 1 naming each problem with its file
// and line, or the record no file cites.
import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { citationsOf, linkProblem, linksOf, uncitedDecisions } from './lib/doc-links.ts'

const ROOT = join(import.meta.dirname, '..')
const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  cwd: ROOT,
  encoding: 'utf8',
})
  .split('\n')
  .filter((file) => file !== '' && !file.startsWith('locales/') && !file.endsWith('.lock'))
  .filter((file) =>
    /\.(md|ts|tsx|js|mjs|css|ya?ml|tpl|txt|sh|json)$|(^|\/)(run|Dockerfile)$/.test(file),
  )

const problems: string[] = []
const texts = new Map<string, string>()
for (const file of files) {
  let text: string
  try {
    text = readFileSync(join(ROOT, file), 'utf8')
  } catch {
    continue // listed by git, deleted in the working tree
  }
  texts.set(file, text)
  if (file.endsWith('.md')) {
    for (const { line, target } of linksOf(text)) {
      const problem = linkProblem(ROOT, join(ROOT, file), target)
      if (problem) problems.push(`${file}:${line}: ${problem}`)
    }
    continue
  }
  for (const { line, target } of citationsOf(text)) {
    const problem = linkProblem(ROOT, join(ROOT, 'package.json'), target)
    if (problem) problems.push(`${file}:${line}: ${problem}`)
  }
  text.split('\n').forEach((content, index) => {
    if (/\bREADME(\.md)?,? ["(]?[A-Z"]/.test(content) && !/helm\/README|ci\/README/.test(content)) {
      problems.push(
        `${file}:${index + 1}: cites the README by section: cite docs/<guide>.md#<anchor>`,
      )
    }
  })
}

for (const record of uncitedDecisions(texts)) {
  problems.push(`${record}: a decision record no code cites (cite its path in the code it shapes)`)
}

if (problems.length > 0) {
  console.error(
    `${problems.length} problem(s) with the docs' links and citations:\n${problems.join('\n')}`,
  )
  process.exit(1)
}
console.log(
  `docs: ${files.length} files, every link and citation resolves, every decision record is cited`,
)
