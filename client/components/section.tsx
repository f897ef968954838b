import type { ReactNode } from 'react'

type SectionProps = {
  /** Used for the heading's id (`{id}-title`), which also names the section. */
  id: string
  title: string
  /** A short lead under the heading. */
  intro?: string
  /** The alternate, tinted background. */
  isMuted?: boolean
  children: ReactNode
}

/** A page section: a landmark named by its `h2`, the content width, an optional lead. */
export function Section({ id, title, intro, isMuted = false, children }: SectionProps) {
  const titleId = `${id}-title`
  return (
    <section className={isMuted ? 'section section-muted' : 'section'} aria-labelledby={titleId}>
      <div className="container">
        {intro === undefined ? (
          <h2 id={titleId} className="section-title">
            {title}
          </h2>
        ) : (
          <header className="section-header">
            <h2 id={titleId}>{title}</h2>
            <p>{intro}</p>
          </header>
        )}
        {children}
      </div>
    </section>
  )
}
