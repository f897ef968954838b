import type { TeamSlug } from '#shared/team.ts'
import jonasWeber from '../assets/team/jonas-weber.svg'
import katarzynaNowak from '../assets/team/katarzyna-nowak.svg'

const PORTRAITS: Record<TeamSlug, string> = {
  'jonas-weber': jonasWeber,
  'katarzyna-nowak': katarzynaNowak,
}

type PortraitProps = {
  slug: TeamSlug
  alt: string
  className?: string
  /** The profile page's portrait is above the fold; cards load theirs lazily. */
  isPriority?: boolean
}

/** An illustrated portrait (self-hosted SVG) with its intrinsic size, so nothing shifts. */
export function Portrait({ slug, alt, className, isPriority = false }: PortraitProps) {
  return (
    <img
      className={className ? `portrait ${className}` : 'portrait'}
      src={PORTRAITS[slug]}
      width="480"
      height="560"
      alt={alt}
      loading={isPriority ? 'eager' : 'lazy'}
      decoding="async"
    />
  )
}
