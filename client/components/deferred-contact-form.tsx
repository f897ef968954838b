import { lazy, Suspense, useEffect, type ComponentProps, type RefObject } from 'react'

/**
 * The contact form where it sits below the fold (the home page's last section): its code loads
 * when the form comes near the viewport or is touched, not with the page's first view
 * (docs/decisions/deferred-home-form.md). Until then the server's HTML of the form stays on
 * screen as it is: a form that posts without script, and what a visitor typed into it is kept
 * when it hydrates. After the first page, a page that shows it loads it at once.
 */
type FormModule = typeof import('./contact-form.tsx')
type ContactFormProps = ComponentProps<FormModule['ContactForm']>

const loadForm = () => import('./contact-form.tsx')

/**
 * The server renders the form at once: a server render that suspends streams the finished part
 * as an inline script, which the site's CSP refuses. `import.meta.env.SSR` is false in the
 * browser's build, so the browser neither waits here nor loads the form with the page.
 */
const serverForm = import.meta.env.SSR ? (await loadForm()).ContactForm : undefined

let release: () => void = () => {}
/** Settles when the form is wanted: near the viewport, touched, or its page left. */
const wanted = new Promise<void>((resolve) => {
  release = resolve
})

const LazyContactForm = lazy(async () => {
  // While the server's page hydrates, wait for the visitor; on a later page, load at once.
  if (!document.documentElement.dataset.hydrated) await wanted
  return { default: (await loadForm()).ContactForm }
})

/** How far below the viewport the form starts loading: about a screen ahead of a scroll. */
const AHEAD = '100% 0px'

type DeferredContactFormProps = ContactFormProps & {
  /** The page's part around the form: when it nears the viewport or is touched, the form loads. */
  region: RefObject<HTMLElement | null>
}

export function DeferredContactForm({ region, ...props }: DeferredContactFormProps) {
  useEffect(() => {
    const section = region.current
    if (!section || typeof IntersectionObserver === 'undefined') return release()
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) release()
      },
      { rootMargin: AHEAD },
    )
    observer.observe(section)
    // A visitor who reaches the form faster than a scroll (a link to #contact, Tab, a tap).
    const touched = () => release()
    section.addEventListener('focusin', touched)
    section.addEventListener('pointerdown', touched)
    return () => {
      observer.disconnect()
      section.removeEventListener('focusin', touched)
      section.removeEventListener('pointerdown', touched)
      // Leaving the page before the form was wanted: the next page that shows it has it.
      release()
    }
  }, [region])
  const Form = serverForm ?? LazyContactForm
  return (
    <Suspense>
      <Form {...props} />
    </Suspense>
  )
}
