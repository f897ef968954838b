import { spawn, spawnSync } from 'node:child_process'
import { createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto'

/** Debian's python3-dkim (dkimpy), a verifier independent of nodemailer's signer. */
export const PYTHON = '/usr/bin/python3'
export const HAS_PYTHON_DKIM = spawnSync(PYTHON, ['-c', 'import dkim']).status === 0

/** A key pair as ops would make one (`openssl genpkey -algorithm RSA …`): RSA, 2048 bits. */
export function dkimKeyPair(): { privateKeyPem: string; publicKey: KeyObject } {
  const { privateKey } = generateKeyPairSync('rsa', { modulusLength: 2048 })
  return {
    privateKeyPem: privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
    publicKey: createPublicKey(privateKey),
  }
}

/** The TXT record published at `<selector>._domainkey.<domain>` for a public key. */
export function dkimRecord(publicKey: KeyObject): string {
  const der = publicKey.export({ type: 'spki', format: 'der' })
  return `v=DKIM1; k=rsa; p=${der.toString('base64')}`
}

/**
 * dkimpy verifies the first DKIM-Signature of `raw`. There is no DNS here: its `dnsfunc`
 * answers the one name the signature must point at (`<selector>._domainkey.<domain>.`) with
 * `record`, and nothing for any other name, so a signature naming another selector or domain
 * fails as it would in the world.
 */
const VERIFY = `
import logging, sys, dkim
record, selector, domain = (arg.encode() for arg in sys.argv[1:4])
wanted = selector + b'._domainkey.' + domain + b'.'
asked = []
def dnsfunc(name, timeout=5):
    asked.append(name.decode())
    return record if name == wanted else None
logging.basicConfig(stream=sys.stderr, level=logging.DEBUG, format='%(message)s')
ok = dkim.verify(sys.stdin.buffer.read(), logger=logging.getLogger('dkim'), dnsfunc=dnsfunc)
print('pass' if ok else 'fail', *asked)
`

export type DkimResult = {
  isValid: boolean
  /** The names dkimpy looked up. */
  asked: string[]
  /** dkimpy's own account, for a failing test's message. */
  log: string
}

export async function verifyDkim(
  raw: string | Buffer,
  { record, selector, domain }: { record: string; selector: string; domain: string },
): Promise<DkimResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(PYTHON, ['-c', VERIFY, record, selector, domain])
    const out: Buffer[] = []
    const err: Buffer[] = []
    child.stdout.on('data', (chunk: Buffer) => out.push(chunk))
    child.stderr.on('data', (chunk: Buffer) => err.push(chunk))
    child.on('error', reject)
    child.on('close', (code) => {
      const log = Buffer.concat(err).toString()
      const [verdict, ...asked] = Buffer.concat(out).toString().trim().split(/\s+/)
      if (code !== 0 || (verdict !== 'pass' && verdict !== 'fail')) {
        reject(new Error(`python3 dkim exited ${code}: ${log}`))
        return
      }
      resolve({ isValid: verdict === 'pass', asked, log })
    })
    child.stdin.end(raw)
  })
}
