import type { ReactNode } from 'react'

type PageHeroProps = {
  /** Used for the `h1`'s id (`{id}-title`), which names the section. */
  id: string
  badge: ReactNode
  title: string
  lead: string
  /** Above the badge: the page's breadcrumbs, if it has any. */
  breadcrumbs?: ReactNode
}

/** The opening of an inner page: badge, the page's one `h1` and a lead paragraph. */
export function PageHero({ id, badge, title, lead, breadcrumbs }: PageHeroProps) {
  return (
    <section className="page-hero" aria-labelledby={`${id}-title`}>
      <div className="container">
        {breadcrumbs}
        <p className="badge">{badge}</p>
        <h1 id={`${id}-title`}>{title}</h1>
        <p className="page-lead">{lead}</p>
      </div>
    </section>
  )
}
