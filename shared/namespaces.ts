import type { DerivedResources, FileNamespace, FileResources, ServiceCard } from './texts.ts'
import { PAGES } from './pages.ts'
import {
  SERVICES,
  SUPPORT_TIERS,
  serviceNamespace,
  type ServiceSlug,
  type SupportTier,
} from './services.ts'

/**
 * Which namespaces the server loads and how it makes the derived ones; the browser never
 * needs this (it gets its texts embedded in the page or as one file per namespace).
 */

/** The file namespaces: the chrome's, the lead e-mail's, and those the pages declare. */
export const FILE_NAMESPACES: readonly FileNamespace[] = [
  ...new Set<FileNamespace>(['common', 'mail', ...PAGES.flatMap((page) => page.namespaces)]),
]

/**
 * Make the derived namespaces of one locale from its file namespaces: `service-cards` gathers
 * the `card` of each service's own file, and every page embeds it; no such file is on disk
 * (docs/decisions/service-cards-gathered-by-the-server.md).
 */
export function deriveNamespaces(
  bundle: <N extends FileNamespace>(namespace: N) => FileResources[N],
): DerivedResources {
  return {
    'service-cards': Object.fromEntries(
      SERVICES.map(({ slug }) => [slug, bundle(serviceNamespace(slug)).card]),
    ) as Record<ServiceSlug, ServiceCard>,
    'support-plans': Object.fromEntries(
      SUPPORT_TIERS.map(({ key }) => {
        const tier = bundle('service-managed-it').tiers.items[key]
        const label = bundle('common').form.planOption
        return [key, label.replace('{{package}}', tier.package).replace('{{name}}', tier.name)]
      }),
    ) as Record<SupportTier, string>,
  }
}
