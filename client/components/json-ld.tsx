/**
 * Structured data for search engines as a JSON data block: not executable, so allowed by the
 * Content Security Policy. `<` is escaped so the text cannot end the element.
 */
export function JsonLd({ data }: { data: Record<string, unknown> }) {
  const json = JSON.stringify(data).replace(/</g, '\\u003c')
  return <script type="application/ld+json" dangerouslySetInnerHTML={{ __html: json }} />
}
