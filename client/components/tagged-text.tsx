import type { ReactNode } from 'react'

/**
 * Renders a translated sentence in which one `<tag>…</tag>` pair marks the words that become
 * an element (a link, say): `By sending you agree to our <privacyLink>Privacy Policy</privacyLink>.`
 * The locale check guarantees every language keeps the same tags. A text without the pair is
 * shown as it is. This replaces react-i18next's `<Trans>` and its HTML parser, which weigh
 * about 4 KB gzip on the home page for one sentence (docs/decisions/no-trans.md).
 */
export function TaggedText({
  text,
  tag,
  render,
}: {
  text: string
  tag: string
  render: (content: string) => ReactNode
}) {
  const open = `<${tag}>`
  const close = `</${tag}>`
  const start = text.indexOf(open)
  const end = text.indexOf(close, start + open.length)
  if (start < 0 || end < 0) return <>{text}</>
  return (
    <>
      {text.slice(0, start)}
      {render(text.slice(start + open.length, end))}
      {text.slice(end + close.length)}
    </>
  )
}
