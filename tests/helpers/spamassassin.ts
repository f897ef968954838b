import { spawn, spawnSync } from 'node:child_process'
import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** Debian's SpamAssassin (`apt-get install spamassassin`; .ci/run installs it). */
export const HAS_SPAMASSASSIN = spawnSync('spamassassin', ['--version']).status === 0

export type SpamVerdict = {
  /** The sum of the rules' scores (the header rounds it to one decimal). */
  score: number
  /** The rules hit, highest score first. */
  rules: { name: string; score: number }[]
}

/**
 * Scores a raw mail as a receiving mail server's SpamAssassin would, with the rules the
 * package ships (no sa-update here), and only what runs locally: `-L` leaves out DNS
 * blocklists, Razor, Pyzor and DKIM key look-ups, none of which can be reached from a test.
 * Bayes is off (an untrained database decides nothing, and learning would write to it), and
 * the home folder is a temporary one, so no user's settings or learned data take part and
 * nothing under /root changes. The rules and their scores come from a header of our own.
 */
export async function spamAssassin(raw: string): Promise<SpamVerdict> {
  const home = await mkdtemp(join(tmpdir(), 'spamassassin-'))
  try {
    const output = await new Promise<string>((resolve, reject) => {
      const child = spawn(
        'spamassassin',
        [
          '-L',
          '-t',
          '-p',
          join(home, 'user_prefs'),
          '--cf=use_bayes 0',
          '--cf=bayes_auto_learn 0',
          '--cf=add_header all Rules _TESTSSCORES(,)_',
        ],
        { env: { PATH: process.env.PATH, HOME: home, LANG: 'C.UTF-8' } },
      )
      const chunks: Buffer[] = []
      const errors: Buffer[] = []
      child.stdout.on('data', (chunk: Buffer) => chunks.push(chunk))
      child.stderr.on('data', (chunk: Buffer) => errors.push(chunk))
      child.on('error', reject)
      child.on('close', (code) => {
        // -t exits with 0 for ham and 1 for spam; anything else is a failure of its own.
        if (code === 0 || code === 1) resolve(Buffer.concat(chunks).toString('utf8'))
        else reject(new Error(`spamassassin exited ${code}: ${Buffer.concat(errors).toString()}`))
      })
      child.stdin.end(raw)
    })
    const head = output.slice(0, output.search(/\r?\n\r?\n/)).replace(/\r?\n[ \t]+/g, ' ')
    const rules = /^X-Spam-Rules: (.*)$/m.exec(head)?.[1]?.trim()
    if (rules === undefined) throw new Error(`spamassassin added no rules header:\n${head}`)
    const hits =
      rules === 'none' || rules === ''
        ? []
        : rules.split(',').map((hit) => {
            const [name = '', score = 'NaN'] = hit.trim().split('=')
            return { name, score: Number(score) }
          })
    hits.sort((a, b) => b.score - a.score || a.name.localeCompare(b.name))
    const score = hits.reduce((sum, hit) => sum + hit.score, 0)
    return { score: Math.round(score * 1000) / 1000, rules: hits }
  } finally {
    await rm(home, { recursive: true, force: true })
  }
}

/**
 * The mail as the receiving server hands it to its filter: the data as received, and the
 * envelope sender recorded in front of it as `Return-Path` (RFC 5321, 4.4: the delivering
 * server adds it; amavis and spamass-milter pass it to SpamAssassin likewise). Nothing else is
 * added: `Received` lines describe the relay's path, which is the relay's doing, not the site's.
 */
export function asDelivered({ raw, envelopeFrom }: { raw: string; envelopeFrom: string }): string {
  return `Return-Path: <${envelopeFrom}>\r\n${raw}`
}

/** One line for a test's output: `1.234  RULE=0.5, OTHER=0.7`. */
export function describeVerdict({ score, rules }: SpamVerdict): string {
  const hits = rules.map(({ name, score: points }) => `${name}=${points}`).join(', ')
  return `${score.toFixed(3).padStart(6)}  ${hits || '(no rules hit)'}`
}
