import type { Page } from '#shared/pages.ts'
import { usePageTexts } from '../use-page-texts.ts'
import { Breadcrumbs } from './breadcrumbs.tsx'

type PageHeroProps = {
  page: Page
  /** Used for the `h1`'s id (`{id}-title`), which names the section. */
  id: string
  lead: string
}

/**
 * The opening of an inner page: breadcrumbs, the page's badge, its one `h1` (both as
 * `pageTexts` names them, like its share image) and a lead paragraph.
 */
export function PageHero({ page, id, lead }: PageHeroProps) {
  const { badge, title } = usePageTexts(page)
  return (
    <section className="page-hero" aria-labelledby={`${id}-title`}>
      <div className="container">
        <Breadcrumbs page={page} />
        <p className="badge">{badge}</p>
        <h1 id={`${id}-title`}>{title}</h1>
        <p className="page-lead">{lead}</p>
      </div>
    </section>
  )
}
