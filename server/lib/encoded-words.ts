/**
 * MIME encoded words (RFC 2047: `=?UTF-8?B?ZXhlLnBkZg==?=`) in text a visitor typed. A mail
 * program decodes them wherever they appear in a header, so a name or subject that holds one
 * would be read as something else than was typed: a reversed file name, a link. The site's
 * mails carry such text encoded, so it arrives as typed (`server/services/contact/mail.ts`),
 * and the signs of spam read it decoded too (`server/services/spam/spam-signals.ts`).
 *
 * Read as leniently as mail programs read them: inside a word too, in any letter case, the
 * whitespace between two encoded words dropped. Every part stops at the next `?`, so the
 * pattern never backtracks (linear in the text's length).
 */
const ENCODED_WORD = /=\?([^?\s]{1,40})\?([BbQq])\?([^?]*)\?=/g
/** Whitespace between two encoded words is not part of the text (RFC 2047, 6.2). */
const BETWEEN_WORDS = /(?<=\?=)[ \t]+(?==\?[^?\s]{1,40}\?[BbQq]\?)/g

/** Does the text hold something a mail program would decode? */
export function hasEncodedWord(text: string): boolean {
  ENCODED_WORD.lastIndex = 0
  return ENCODED_WORD.test(text)
}

function bytesOf(encoding: string, text: string): Buffer {
  if (encoding.toUpperCase() === 'B') return Buffer.from(text, 'base64')
  const bytes: number[] = []
  for (let index = 0; index < text.length; index++) {
    const character = text[index] ?? ''
    const hex = text.slice(index + 1, index + 3)
    if (character === '=' && /^[0-9A-Fa-f]{2}$/.test(hex)) {
      bytes.push(parseInt(hex, 16))
      index += 2
    } else if (character === '_') {
      bytes.push(0x20)
    } else {
      bytes.push(...Buffer.from(character))
    }
  }
  return Buffer.from(bytes)
}

/** The text as a mail program shows it: each encoded word decoded, in its charset. */
export function decodeEncodedWords(text: string): string {
  return text
    .replace(BETWEEN_WORDS, '')
    .replace(ENCODED_WORD, (word, charset: string, encoding: string, data: string) => {
      // A language after `*` (RFC 2231) is no part of the charset's name.
      const name = charset.split('*')[0] ?? ''
      try {
        return new TextDecoder(name).decode(bytesOf(encoding, data))
      } catch {
        return word // a charset no decoder knows: a mail program shows the word as it is
      }
    })
}
