/**
 * Decorative hero drawing: a legacy block on the left migrating into a tidy stack of
 * services on the right, on a grid (the element's background, hero.css). Pure SVG, coloured
 * through CSS classes, no text.
 *
 * Shapes of one colour share a path: a rounded bar is a line with round caps, a rounded
 * card a rectangle with a thick round-joined outline (widths in hero.css; opaque colours
 * only, as fill and outline overlap). It draws what one element per shape drew, in fewer
 * bytes of the home page's first-view script (docs/decisions/first-view-budget.md).
 */
export function HeroIllustration() {
  return (
    <svg
      className="hero-illustration"
      viewBox="0 0 480 400"
      width="480"
      height="400"
      aria-hidden="true"
    >
      <rect x="36" y="118" width="132" height="164" rx="10" className="ill-card-muted" />
      <path d="M61 147h82M61 169h60M61 191h74" className="ill-legacy-line" />
      <rect x="56" y="222" width="92" height="38" rx="6" className="ill-legacy-block" />
      <path d="M176 200h64M232 190l12 10-12 10" className="ill-flow" />
      <path d="M276 74h154v44H276zm0 104h154v44H276zm0 104h154v44H276z" className="ill-card" />
      <circle cx="296" cy="96" r="14" className="ill-accent" />
      <circle cx="296" cy="200" r="14" className="ill-brand" />
      <circle cx="296" cy="304" r="14" className="ill-success" />
      <path d="M326.5 88.5h87m-87 104h95m-95 104h79" className="ill-line-strong" />
      <path d="M326.5 105.5h55m-55 104h63m-63 104h49" className="ill-line" />
      <path d="M353 132v32m0 72v32" className="ill-link" />
      <path d="M289 96l5 5 9-10m-14 109 5 5 9-10m-14 109 5 5 9-10" className="ill-check" />
    </svg>
  )
}
