import { existsSync, readFileSync } from 'node:fs'
import { dirname, join, normalize, relative } from 'node:path'

/**
 * The anchor GitHub and GitLab give a heading: its text without Markdown's code marks and
 * link syntax, lower-cased, punctuation other than `-` and `_` removed, spaces as `-`.
 */
export function headingSlug(heading: string): string {
  return heading
    .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
    .replace(/[`*]/g, '')
    .trim()
    .toLowerCase()
    .replace(/[^\p{L}\p{M}\p{N}\p{Pc}\- ]/gu, '')
    .replace(/ /g, '-')
}

/** Markdown outside fenced code blocks, line by line with its number. */
function proseLines(markdown: string): { line: number; text: string }[] {
  const lines: { line: number; text: string }[] = []
  let fence: string | undefined
  markdown.split('\n').forEach((text, index) => {
    const marker = /^\s*(`{3,}|~{3,})/.exec(text)?.[1]
    if (marker && (!fence || marker.startsWith(fence))) {
      fence = fence ? undefined : marker
      return
    }
    if (!fence) lines.push({ line: index + 1, text })
  })
  return lines
}

/** The anchors of a Markdown file's headings, repeated ones numbered as the renderers do. */
export function anchorsOf(markdown: string): Set<string> {
  const anchors = new Set<string>()
  const seen = new Map<string, number>()
  for (const { text } of proseLines(markdown)) {
    const heading = /^#{1,6}\s+(.+?)\s*#*\s*$/.exec(text)?.[1]
    if (heading === undefined) continue
    const slug = headingSlug(heading)
    const count = seen.get(slug) ?? 0
    seen.set(slug, count + 1)
    anchors.add(count === 0 ? slug : `${slug}-${count}`)
  }
  return anchors
}

export type DocLink = { line: number; target: string }

/** The relative links of a Markdown file (inline and reference style), outside code. */
export function linksOf(markdown: string): DocLink[] {
  const links: DocLink[] = []
  for (const { line, text } of proseLines(markdown)) {
    const prose = text.replace(/`[^`]*`/g, '')
    for (const match of prose.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) {
      links.push({ line, target: match[1] ?? '' })
    }
    const reference = /^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/.exec(prose)?.[1]
    if (reference) links.push({ line, target: reference })
  }
  return links.filter(({ target }) => !/^[a-z][a-z0-9+.-]*:/i.test(target))
}

/** Each Markdown file's anchors, read once however many links point into it. */
const anchorCache = new Map<string, Set<string>>()
function anchorsIn(file: string): Set<string> {
  let anchors = anchorCache.get(file)
  if (!anchors) {
    anchors = anchorsOf(readFileSync(file, 'utf8'))
    anchorCache.set(file, anchors)
  }
  return anchors
}

/**
 * What is wrong with a link to `target` (a path relative to `from`, a file of the repository at
 * `root`, with an optional `#anchor`): a missing file or a heading the file does not have.
 */
export function linkProblem(root: string, from: string, target: string): string | undefined {
  const hash = target.indexOf('#')
  const path = hash === -1 ? target : target.slice(0, hash)
  const anchor = hash === -1 ? undefined : target.slice(hash + 1)
  const file = path === '' ? from : normalize(join(dirname(from), decodeURI(path)))
  if (relative(root, file).startsWith('..')) return `${target}: outside the repository`
  if (!existsSync(file)) return `${target}: no such file`
  if (anchor === undefined || anchor === '') return undefined
  if (!file.endsWith('.md')) return `${target}: an anchor into a file that is not Markdown`
  if (!anchorsIn(file).has(anchor)) return `${target}: no such heading`
  return undefined
}

/**
 * Citations of the docs in code comments and configuration: `docs/<guide>.md#<anchor>`,
 * `helm/README.md#<anchor>` or a bare path, relative to the repository.
 */
export function citationsOf(text: string): DocLink[] {
  const citations: DocLink[] = []
  text.split('\n').forEach((content, index) => {
    for (const match of content.matchAll(
      /(?<![\w./-])((?:docs|helm)\/[\w./-]*\.md|README\.md)(#[\w-]+)?/g,
    )) {
      citations.push({ line: index + 1, target: `${match[1] ?? ''}${match[2] ?? ''}` })
    }
  })
  return citations
}

/** A decision record's path as code cites it: `docs/decisions/<name>.md`, also inside `../`. */
const DECISION_PATH = /(?<![\w-])docs\/decisions\/[\w.-]+?\.md(?![\w-])/g

/** A decision record: `docs/decisions/<name>.md`, the folder's README not one. */
const DECISION_RECORD = /^docs\/decisions\/(?!README\.md$)[^/]+\.md$/

/**
 * The decision records no file outside docs/ and the root README cites by their path
 * (`docs/decisions/<name>.md`), sorted: each record is cited by the code it shapes, so a reader
 * of that code finds why it is so. A record whose header (before its first `##` section) says
 * `Status: superseded` needs no citation. `files`: the repository's files by path, with text.
 */
export function uncitedDecisions(files: ReadonlyMap<string, string>): string[] {
  const cited = new Set<string>()
  for (const [file, text] of files) {
    if (file.startsWith('docs/') || file === 'README.md') continue
    for (const [path] of text.matchAll(DECISION_PATH)) cited.add(path)
  }
  return [...files]
    .filter(([file, text]) => {
      if (!DECISION_RECORD.test(file) || cited.has(file)) return false
      const header = text.split(/^## /m)[0] ?? ''
      return !/\bStatus: superseded\b/.test(header)
    })
    .map(([file]) => file)
    .sort()
}
