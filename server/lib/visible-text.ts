/**
 * Text a person sent, made safe to print where it is read, not interpreted: a terminal (the
 * quarantine's `show`) or a mail the company reads (the quarantine digest). Control characters
 * (a carriage return that rewinds a terminal line, an escape sequence), bidirectional controls
 * that reorder what follows, and invisible format characters are written as `⟨U+202E⟩`, so the
 * operator reads every character a release would mail. Line feeds (CRLF as one) and tabs of a
 * multi-line text stay as they are.
 */
const HIDDEN = /[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu

export function visibleText(text: string, { isMultiLine = false } = {}): string {
  const lines = isMultiLine ? text.replace(/\r\n/g, '\n') : text
  return lines.replace(HIDDEN, (character) =>
    isMultiLine && (character === '\n' || character === '\t')
      ? character
      : `⟨U+${(character.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}⟩`,
  )
}
