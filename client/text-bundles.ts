// Every locale's text bundles the browser may load on a client-side navigation: one small
// chunk per locale and namespace, so a page loads only what it needs. Not `common`, which
// every page embeds, nor `mail`, the lead e-mail's texts, which no page reads
// (tests/client/browser-i18n.test.ts). The map itself is a chunk of its own, fetched after the
// first view (client/browser-i18n.ts): it grows with every language and service, and the first
// view's budget does not (docs/decisions/text-bundle-map-after-the-first-view.md).
type JsonModule = { default: Record<string, unknown> }

export const bundles = import.meta.glob<JsonModule>(
  ['./*/*.json', '!./*/common.json', '!./*/mail.json'],
  { base: '../locales' },
)
