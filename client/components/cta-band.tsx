import { Icon } from './icons.tsx'
import { LocalizedLink } from './localized-link.tsx'

type CtaBandProps = { id: string; title: string; text: string; button: string; to: string }

/** The closing call to action of a page: a dark band with one button. */
export function CtaBand({ id, title, text, button, to }: CtaBandProps) {
  return (
    <section className="cta-band" aria-labelledby={id}>
      <div className="container cta-band-inner">
        <div>
          <h2 id={id}>{title}</h2>
          <p>{text}</p>
        </div>
        <LocalizedLink to={to} className="button button-accent button-large">
          {button}
          <Icon name="arrowRight" />
        </LocalizedLink>
      </div>
    </section>
  )
}
