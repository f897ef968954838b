import { ESLint } from 'eslint'
import tseslint from 'typescript-eslint'
import { describe, expect, it } from 'vitest'

// The project's own ESLint configuration on imports that cross (or respect) a boundary. The
// files need not exist: only `no-restricted-imports` matters here, so type information is off.
const eslint = new ESLint({
  cwd: `${import.meta.dirname}/../..`,
  overrideConfig: [tseslint.configs.disableTypeChecked],
})

async function restrictedImports(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return (result?.messages ?? [])
    .filter((message) => message.ruleId === 'no-restricted-imports')
    .map((message) => message.message)
}

describe('import boundaries', () => {
  it.each([
    ['shared/example.ts', "import { buildApp } from '#server/app.ts'"],
    ['shared/example.ts', "import { Document } from '#client/document.tsx'"],
    ['shared/example.ts', "import { buildApp } from '../server/app.ts'"],
    ['shared/deep/example.ts', "export { Document } from '../../client/document.tsx'"],
    ['client/example.ts', "import type { Config } from '#server/config.ts'"],
    ['client/components/example.tsx', "import { loadConfig } from '../../server/config.ts'"],
    ['server/example.ts', "import { Document } from '#client/document.tsx'"],
    ['server/routes/example.ts', "import type { AppData } from '#client/embedded-data.ts'"],
    ['server/example.ts', "import { render } from '../client/entry-server.tsx'"],
    ['server/example.ts', "import { Link } from 'react-router'"],
    ['client/example.tsx', "import { Link } from 'react-router'"],
    ['shared/example.ts', "import { Link } from 'react-router'"],
    ['server/example.ts', "import { FileOutbox } from './services/contact/outbox.ts'"],
    ['server/plugins/example.ts', "import { FormTokens } from '../services/spam/form-token.ts'"],
    [
      'server/cli/example.ts',
      "import { SELECTOR } from '#server/services/insight/label-selector.ts'",
    ],
    [
      'scripts/example.ts',
      "import { QUARANTINE_FOLDER } from '#server/services/contact/quarantine.ts'",
    ],
    [
      'server/services/contact/example.ts',
      "import type { DropReason } from '../spam/spam-signals.ts'",
    ],
    ['server/services/insight/example.ts', "export { htmlDocument } from '../contact/mail.ts'"],
    [
      'server/services/spam/example.ts',
      "import { X } from '#server/services/reports/csp-reports.ts'",
    ],
    ['server/lib/example.ts', "import { FileOutbox } from '../services/contact/index.ts'"],
  ])('%s may not: %s', async (filePath, code) => {
    expect(await restrictedImports(filePath, code)).toHaveLength(1)
  })

  it.each([
    ['shared/example.ts', "import { LOCALES } from './locales.ts'"],
    ['client/example.ts', "import { LOCALES } from '#shared/locales.ts'"],
    ['server/example.ts', "import type * as EntryServer from '#client/entry-server.tsx'"],
    ['server/example.ts', "import type { AppData } from '#shared/page-data.ts'"],
    ['client/example.tsx', "import { Link } from 'react-router-dom'"],
    ['tests/example.ts', "import { Document } from '#client/document.tsx'"],
    ['server/example.ts', "import { FileOutbox } from './services/contact/index.ts'"],
    ['server/plugins/example.ts', "import { FormTokens } from '../services/spam/index.ts'"],
    ['scripts/example.ts', "import { QUARANTINE_FOLDER } from '#server/services/contact/index.ts'"],
    ['server/services/contact/example.ts', "import { FileOutbox } from './outbox.ts'"],
    ['server/services/contact/example.ts', "import type { DropReason } from '../spam/index.ts'"],
    [
      'server/services/contact/example.ts',
      "import { writeDurably } from '../../lib/durable-file.ts'",
    ],
    ['tests/server/example.ts', "import { FileOutbox } from '#server/services/contact/outbox.ts'"],
  ])('%s may: %s', async (filePath, code) => {
    expect(await restrictedImports(filePath, code)).toEqual([])
  })
})
