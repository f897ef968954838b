import type { ServiceSlug } from '#shared/routes.ts'
import { CloudIcon, HeadsetIcon, LockIcon, MonitorIcon, PlugIcon, RefreshIcon } from './icons.tsx'

const SERVICE_ICONS = {
  'cloud-infrastructure': CloudIcon,
  'business-modernization': RefreshIcon,
  'digital-presence': MonitorIcon,
  'api-integration': PlugIcon,
  'managed-it': HeadsetIcon,
  'security-compliance': LockIcon,
} satisfies Record<ServiceSlug, unknown>

export function ServiceIcon({ slug, className }: { slug: ServiceSlug; className?: string }) {
  const Icon = SERVICE_ICONS[slug]
  return <Icon className={className} />
}
