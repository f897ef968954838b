/** Attribute and text values as the browser reads them: React escapes `&`, `<`, `>` and `"`. */
export function decodeEntities(value: string): string {
  return value
    .replace(/&quot;/g, '"')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&')
}

/** The `<head>` of a served document. */
export function headOf(html: string): string {
  return /<head>[\s\S]*?<\/head>/.exec(html)?.[0] ?? ''
}

/** Every `content` of the meta tags whose property or name is `key`, decoded. */
export function metaValues(head: string, key: string): string[] {
  const pattern = new RegExp(`<meta (?:property|name)="${key}" content="([^"]*)"/>`, 'g')
  return [...head.matchAll(pattern)].map((match) => decodeEntities(match[1] ?? ''))
}

/** The structured data blocks of a document, parsed (a block that is not JSON throws). */
export function jsonLdBlocks(html: string): unknown[] {
  return [...html.matchAll(/<script type="application\/ld\+json">([\s\S]*?)<\/script>/g)].map(
    (match) => JSON.parse(match[1] ?? '') as unknown,
  )
}

/** The visible breadcrumbs: each crumb's text and link (none for the current page). */
export function visibleBreadcrumbs(html: string): { name: string; href?: string }[] {
  const nav = /<nav class="breadcrumbs"[^>]*>([\s\S]*?)<\/nav>/.exec(html)?.[1] ?? ''
  return [...nav.matchAll(/<li>([\s\S]*?)<\/li>/g)].map((match) => {
    const item = match[1] ?? ''
    const href = /href="([^"]+)"/.exec(item)?.[1]
    const name = decodeEntities(item.replace(/<[^>]+>/g, '').trim())
    return href ? { name, href } : { name }
  })
}
