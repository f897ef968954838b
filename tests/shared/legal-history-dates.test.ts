import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { LEGAL_HISTORY, legalDay, type DatedLegalText } from '#shared/legal.ts'

/**
 * A dated version of a legal text is the text as it was online on that day in Germany: once
 * the day is over (Europe/Berlin), its hashes may not change. A later change of wording is a
 * new version. Read from the repository's own history of `shared/legal.ts`: the hashes the
 * working tree records for a version of an earlier day are the ones the repository held when
 * that day ended. A language added to the site later brings its hashes to the version that was
 * the latest when its translation came (shared/legal.ts, `LegalVersion`): hashes of a language
 * the version had none for at its day's end may be added; the others never change.
 */

const FILE = 'shared/legal.ts'

/** Versions recorded before this check existed that broke the rule, and why they stay. */
const EARLIER: Record<string, string> = {
  'privacy 2026-11-26':
    'its CDN wording was recorded at 00:44 on the 27th, Berlin time (bcb1205), a UTC commit day',
  'cookies 2026-11-26': 'the same commit recorded its CDN wording',
}

/** Each version's hashes as the source text records them, by text and date. */
function recordedHashes(source: string): Map<string, string> {
  const found = new Map<string, string>()
  for (const text of Object.keys(LEGAL_HISTORY)) {
    const start = source.indexOf(`  ${text}: [`)
    if (start < 0) continue
    const block = source.slice(start, source.indexOf('\n  ],', start))
    for (const [, date, hashes] of block.matchAll(
      /date: '(\d{4}-\d{2}-\d{2})',\s*hashes: (\{[\s\S]*?\}\s*,\s*\})/g,
    )) {
      found.set(`${text} ${date}`, (hashes ?? '').replace(/\s+/g, ' '))
    }
  }
  return found
}

/** A version's recorded hashes by configuration and language (`default en`). */
function hashesByLanguage(recorded: string): Map<string, string> {
  const found = new Map<string, string>()
  for (const [, configuration, languages] of recorded.matchAll(/(\w+): \{([^}]*)\}/g)) {
    for (const [, language, hash] of (languages ?? '').matchAll(/(\w+): '(\w+)'/g)) {
      found.set(`${configuration} ${language}`, hash ?? '')
    }
  }
  return found
}

/** What differs from the hashes a version held at its day's end, beyond languages added later. */
function changedAfterItsDay(then: string, now: string): string[] {
  const before = hashesByLanguage(then)
  const after = hashesByLanguage(now)
  return [...before].filter(([key, hash]) => after.get(key) !== hash).map(([key]) => key)
}

function git(...args: string[]): string {
  return execFileSync('git', args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
}

const history = (() => {
  try {
    if (git('rev-parse', '--is-shallow-repository').trim() === 'true') return null
    return git('log', '--format=%h %cI', '--', FILE)
      .trim()
      .split('\n')
      .filter(Boolean)
      .map((line) => {
        const [commit = '', time = ''] = line.split(' ')
        return { commit, day: legalDay(new Date(time)) }
      })
  } catch {
    return null
  }
})()

const today = legalDay()
const current = recordedHashes(readFileSync(FILE, 'utf8'))

describe('dated versions of the legal texts, against the repository history', () => {
  it('no version is dated after today in Germany', () => {
    for (const text of Object.keys(LEGAL_HISTORY) as DatedLegalText[]) {
      for (const { date } of LEGAL_HISTORY[text])
        expect(date <= today, `${text} ${date}`).toBe(true)
    }
  })

  it('a version’s hashes never change after its day, and no version is added late', () => {
    if (!history) {
      console.log(`not checked: ${FILE} has no readable git history here (a shallow clone?)`)
      return
    }
    expect(history.length, `commits of ${FILE}`).toBeGreaterThan(0)
    const broken: string[] = []
    for (const [version, hashes] of current) {
      const day = version.slice(-10)
      if (day >= today || version in EARLIER) continue
      // The repository as it was when the version's day ended (newest commit first).
      const last = history.find((entry) => entry.day <= day)
      const then = last && recordedHashes(git('show', `${last.commit}:${FILE}`)).get(version)
      if (then === undefined) broken.push(`${version}: recorded only after its day`)
      else {
        const changed = changedAfterItsDay(then, hashes)
        if (changed.length > 0) {
          broken.push(`${version}: hashes changed after its day (${changed.join(', ')})`)
        }
      }
    }
    expect(broken, 'a change of wording after its day is a new version dated that day').toEqual([])
  })
})
