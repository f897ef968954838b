import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/**
 * A folder on a disk of its own that a test can fill: a small tmpfs, which needs root (CI and
 * these machines run as root). Elsewhere the tests that need one are skipped, saying why.
 */
function canMount(): boolean {
  const dir = mkdtempSync(join(tmpdir(), 'full-disk-probe-'))
  try {
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=64k', 'tmpfs', dir], { stdio: 'ignore' })
    execFileSync('umount', [dir], { stdio: 'ignore' })
    return true
  } catch {
    return false
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

const isPossible = canMount()
if (!isPossible) {
  console.warn('Skipping the full-disk tests: mounting a tmpfs needs root (mount -t tmpfs)')
}

export const fullDisk = {
  isPossible,
  /** A 256 KiB disk, empty; `fill` leaves no byte free, `free` removes what `fill` wrote. */
  mount() {
    const dir = mkdtempSync(join(tmpdir(), 'full-disk-'))
    execFileSync('mount', ['-t', 'tmpfs', '-o', 'size=256k,mode=0700', 'tmpfs', dir])
    const filler = join(dir, 'filler')
    return {
      dir,
      fill() {
        // Block by block until the disk refuses (ENOSPC): not a byte left.
        const block = Buffer.alloc(4096, 1)
        let written = Buffer.alloc(0)
        try {
          for (;;) {
            written = Buffer.concat([written, block])
            writeFileSync(filler, written)
          }
        } catch (error) {
          if ((error as NodeJS.ErrnoException).code !== 'ENOSPC') throw error
        }
      },
      free() {
        rmSync(filler, { force: true })
      },
      unmount() {
        execFileSync('umount', ['-l', dir])
        rmSync(dir, { recursive: true, force: true })
      },
    }
  },
}
