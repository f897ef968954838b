// The images the site ships with are pinned by tag and digest, and the update bot's
// configuration (renovate.json) sees every one of them: a pin it cannot see would never be
// updated. Renovate itself (436 MB with its dependencies) is not installed here; its own
// validator and an extraction run are in
// docs/operations.md#pinned-images-bill-of-materials-updates. Its patterns are RE2
// expressions, which JavaScript reads the same for the syntax used here.
import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { parse } from 'yaml'
import { OBSERVATORY_VERSION } from '#tests/helpers/observatory.ts'

const ROOT = join(import.meta.dirname, '..', '..')
const read = (path: string) => readFileSync(join(ROOT, path), 'utf8')

type CustomManager = {
  customType: string
  managerFilePatterns: string[]
  matchStrings: string[]
  datasourceTemplate?: string
}
type PackageRule = {
  matchUpdateTypes?: string[]
  matchPackageNames?: string[]
  groupName?: string
  allowedVersions?: string
  dependencyDashboardApproval?: boolean
}
const renovate = JSON.parse(read('renovate.json')) as {
  extends: string[]
  enabledManagers: string[]
  ignorePaths: string[]
  schedule: string[]
  timezone: string
  customManagers: CustomManager[]
  packageRules: PackageRule[]
}

/** What a custom manager extracts from a file, as Renovate's regex manager does. */
function extract(path: string) {
  const managers = renovate.customManagers.filter((manager) =>
    manager.managerFilePatterns.some((pattern) => {
      const body = /^\/(.*)\/$/.exec(pattern)?.[1]
      return body !== undefined && new RegExp(body).test(path)
    }),
  )
  const text = read(path)
  return managers.flatMap((manager) =>
    manager.matchStrings.flatMap((source) =>
      [...text.matchAll(new RegExp(source, 'g'))].map((match) => ({
        datasource: manager.datasourceTemplate ?? match.groups?.datasource,
        ...match.groups,
      })),
    ),
  )
}

/** node:<x.y.z>-<release>-slim@sha256:<digest> of the Dockerfile's BASE_IMAGE. */
function baseImage() {
  const line = /^ARG BASE_IMAGE=(\S+)$/m.exec(read('Dockerfile'))?.[1] ?? ''
  const match =
    /^docker\.io\/library\/node:(?<version>(?<major>\d+)\.\d+\.\d+)-(?<release>[a-z]+)-slim@(?<digest>sha256:[a-f0-9]{64})$/.exec(
      line,
    )
  const groups: Partial<Record<string, string>> = match?.groups ?? {}
  return {
    line,
    version: groups.version,
    major: groups.major,
    release: groups.release,
    digest: groups.digest,
  }
}

describe('supply chain: pinned images and the update bot', () => {
  it("pins the Dockerfile's base by Node.js version, Debian release and digest, on the Node line the site runs on", () => {
    const base = baseImage()
    expect(base.version, `BASE_IMAGE ${base.line}`).toBeDefined()
    expect(base.digest).toBeDefined()
    // Development uses the line production runs (.nvmrc); package.json's engines still allow
    // the previous LTS line, no newer than the image's (docs/decisions/node-26-in-the-image.md),
    // and @types/node stays on that oldest line, so the code uses nothing it lacks. A Debian
    // release with security support.
    expect(read('.nvmrc').trim()).toBe(base.major)
    const manifest = JSON.parse(read('package.json')) as {
      engines: { node: string }
      devDependencies: Record<string, string>
    }
    const oldest = /^>=(\d+)$/.exec(manifest.engines.node)?.[1]
    expect(Number(oldest)).toBe(Number(base.major) - 2)
    expect(manifest.devDependencies['@types/node']).toMatch(new RegExp(`^\\^${oldest}\\.`))
    const typesRule = renovate.packageRules.find((rule) =>
      rule.matchPackageNames?.includes('@types/node'),
    )
    expect(typesRule?.allowedVersions).toBe(`<${Number(oldest) + 1}`)
    expect(['trixie']).toContain(base.release)
    // The update bot keeps it on that line.
    const nodeRule = renovate.packageRules.find((rule) =>
      rule.matchPackageNames?.includes('docker.io/library/node'),
    )
    expect(nodeRule?.allowedVersions).toBe(`/^${base.major}\\./`)
    expect(
      new RegExp(nodeRule?.allowedVersions?.slice(1, -1) ?? '$^').test(base.version ?? ''),
    ).toBe(true)
  })

  it("pins every image of the chart's values that the chart ships (not the site's own) by tag and digest, and the update bot finds each", () => {
    const values = parse(read('helm/values.yaml')) as Record<string, unknown>
    // Every `image` object in the values, with the path to it.
    const images: { path: string; repository: string; tag: string; digest: string }[] = []
    const visit = (node: unknown, path: string) => {
      if (!node || typeof node !== 'object') return
      for (const [key, child] of Object.entries(node)) {
        if (key === 'image' && child && typeof child === 'object' && 'repository' in child) {
          images.push({ path: `${path}${key}`, ...(child as Omit<(typeof images)[0], 'path'>) })
        } else visit(child, `${path}${key}.`)
      }
    }
    visit(values, '')
    expect(images.map((image) => image.path).sort()).toEqual(['image', 'redis.image'])
    const shipped = images.filter((image) => image.path !== 'image')
    for (const image of shipped) {
      expect(image.tag, image.path).toMatch(/^\d+\.\d+\.\d+-/)
      expect(image.digest, image.path).toMatch(/^sha256:[a-f0-9]{64}$/)
    }
    // The site's own image is built by ops from this repository: its tag is the chart's
    // appVersion and its digest theirs to set.
    expect(images.find((image) => image.path === 'image')?.digest).toBe('')

    const found = extract('helm/values.yaml')
    expect(found).toEqual(
      shipped.map((image) => ({
        datasource: 'docker',
        depName: image.repository,
        currentValue: image.tag,
        currentDigest: image.digest,
      })),
    )
  })

  it('finds the versions pinned in code', () => {
    expect(extract('tests/helpers/observatory.ts')).toEqual([
      {
        datasource: 'npm',
        depName: '@mdn/mdn-http-observatory',
        currentValue: OBSERVATORY_VERSION,
      },
    ])
  })

  it('looks at npm, the Dockerfiles and the pins above, in tests too, and groups a week into one pull request', () => {
    expect(renovate.enabledManagers.sort()).toEqual(['custom.regex', 'dockerfile', 'npm'])
    // config:recommended would skip tests/ (a test image's Containerfile and package.json,
    // the scanner's pin).
    expect(renovate.ignorePaths).toEqual(['**/node_modules/**'])
    expect(renovate.extends).toContain('docker:pinDigests')
    expect(renovate.timezone).toBe('Europe/Berlin')
    expect(renovate.schedule).toHaveLength(1)
    // Monday early morning: one window a week.
    expect(renovate.schedule[0]).toMatch(/^\* [0-9-]+ \* \* 1$/)
    const groups = renovate.packageRules.filter((rule) => rule.groupName)
    expect(groups).toHaveLength(1)
    expect(groups[0]?.matchUpdateTypes?.sort()).toEqual(
      ['digest', 'minor', 'patch', 'pin', 'pinDigest'].sort(),
    )
    const majors = renovate.packageRules.find((rule) => rule.matchUpdateTypes?.includes('major'))
    expect(majors?.dependencyDashboardApproval).toBe(true)
  })
})
