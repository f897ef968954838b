import type { ReactNode } from 'react'
import { Icon, type IconName } from './icons.tsx'
import { LocalizedLink } from './localized-link.tsx'

type IconCardProps = {
  icon: IconName
  title: string
  text: string
  /** `feature-card` (the default), `service-card`, `overview-card`. */
  className?: string
  /** The heading level in its page: cards under a section's `h2` are `h3`. */
  heading?: 'h2' | 'h3'
  children?: ReactNode
}

/** A card led by an icon badge: features, values, capabilities, services. */
export function IconCard({
  icon,
  title,
  text,
  className = 'feature-card',
  heading: Heading = 'h3',
  children,
}: IconCardProps) {
  return (
    <li className={className}>
      <span className="icon-badge">
        <Icon name={icon} />
      </span>
      <Heading>{title}</Heading>
      <p>{text}</p>
      {children}
    </li>
  )
}

/** "Learn more"-style link: its accessible name starts with the visible text and says where. */
export function MoreLink({ to, label, name }: { to: string; label: string; name: string }) {
  return (
    <LocalizedLink to={to} className="text-link">
      {label}
      <span className="visually-hidden">: {name}</span>
      <Icon name="arrowRight" />
    </LocalizedLink>
  )
}
