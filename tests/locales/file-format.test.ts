// The locale files round-trip through a translation tool without noise: each is already in the
// layout Weblate writes for "i18next JSON v4" (scripts/lib/locale-json.ts), so a commit from
// the tool changes only the lines that were translated. Shown with translate-toolkit's own
// reader and writer (what Weblate uses for the format; Debian's, installed by .ci/run) on every
// file it reads correctly, and with the layout rule on all files.
import { execFileSync } from 'node:child_process'
import { existsSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  canonicalLocaleJson,
  LOCALES_DIR,
  localeFiles,
  unformattedLocaleFiles,
} from '#scripts/lib/locale-json.ts'
import { PYTHON } from '#tests/helpers/dkim.ts'

const ROUND_TRIP = join(import.meta.dirname, '..', 'helpers', 'translate-toolkit-roundtrip.py')
const name = (path: string) => relative(LOCALES_DIR, path)

/**
 * Debian's translate-toolkit (3.8) knows Polish as one/few/many and reads and writes no
 * `_other` (fixed upstream in translate/translate#4818, which Weblate has): a Polish file with
 * plural forms is checked by the layout rule alone.
 */
function readsCorrectly(path: string) {
  return !(name(path).startsWith('pl/') && /_other"/.test(readFileSync(path, 'utf8')))
}

describe('locale files', () => {
  it("are in the translation tool's layout (npm run format writes it)", () => {
    expect(unformattedLocaleFiles().map(name)).toEqual([])
  })

  it('the layout rule finds what Prettier would have written, and escaped characters', () => {
    const tool =
      '{\n  "items": [\n    "Kubernetes",\n    "Terraform"\n  ],\n  "law": "Barrierefreiheits\u00adgesetz"\n}\n'
    expect(canonicalLocaleJson(tool)).toBe(tool)
    const joined =
      '{\n  "items": ["Kubernetes", "Terraform"],\n  "law": "Barrierefreiheits\u00adgesetz"\n}\n'
    expect(canonicalLocaleJson(joined)).not.toBe(joined)
    const escaped =
      '{\n  "items": [\n    "Kubernetes",\n    "Terraform"\n  ],\n  "law": "Barrierefreiheits\\u00adgesetz"\n}\n'
    expect(canonicalLocaleJson(escaped)).not.toBe(escaped)
    expect(canonicalLocaleJson(tool.trimEnd())).not.toBe(tool.trimEnd())
  })

  it("come back byte for byte from translate-toolkit's i18next v4 reader and writer", () => {
    expect(
      existsSync(PYTHON) &&
        execFileSync(PYTHON, ['-c', 'import translate.storage.jsonl10n'], { stdio: 'pipe' }),
      "needs Debian's translate-toolkit: apt-get install translate-toolkit (.ci/run does)",
    ).not.toBe(false)
    const files = localeFiles().filter(readsCorrectly)
    expect(files.length).toBeGreaterThan(localeFiles().length - 3)
    const lines = execFileSync(PYTHON, [ROUND_TRIP, ...files], { encoding: 'utf8' })
      .trim()
      .split('\n')
    const differing = lines
      .filter((line) => !line.startsWith('same '))
      .map((line) => name(line.slice(5)))
    expect(lines).toHaveLength(files.length)
    expect(differing).toEqual([])
  })
})
