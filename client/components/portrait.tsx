import type { TeamSlug } from '#shared/team.ts'

/** Every portrait in `client/assets/team/`, by file name: `<slug>.svg` (hashed URLs). */
const PORTRAITS = import.meta.glob<string>('../assets/team/*.svg', {
  eager: true,
  query: '?url',
  import: 'default',
})

type PortraitProps = {
  slug: TeamSlug
  alt: string
  className?: string
  /** The profile page's portrait is above the fold; cards load theirs lazily. */
  isPriority?: boolean
}

/** An illustrated portrait (self-hosted SVG) with its intrinsic size, so nothing shifts. */
export function Portrait({ slug, alt, className, isPriority = false }: PortraitProps) {
  const src = PORTRAITS[`../assets/team/${slug}.svg`]
  if (!src) throw new Error(`No portrait client/assets/team/${slug}.svg`)
  return (
    <img
      className={className ? `portrait ${className}` : 'portrait'}
      src={src}
      width="480"
      height="560"
      alt={alt}
      loading={isPriority ? 'eager' : 'lazy'}
      decoding="async"
    />
  )
}
