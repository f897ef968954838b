/**
 * Decorative hero drawing: a legacy block on the left migrating into a tidy stack of
 * services on the right. Pure SVG, coloured through CSS classes, no text.
 */
export function HeroIllustration() {
  return (
    <svg
      className="hero-illustration"
      viewBox="0 0 480 400"
      width="480"
      height="400"
      aria-hidden="true"
      focusable="false"
    >
      <defs>
        <pattern id="hero-grid" width="24" height="24" patternUnits="userSpaceOnUse">
          <path d="M24 0H0V24" className="ill-grid" fill="none" />
        </pattern>
      </defs>
      <rect x="0" y="0" width="480" height="400" rx="24" fill="url(#hero-grid)" />
      <g className="ill-legacy">
        <rect x="36" y="118" width="132" height="164" rx="10" className="ill-card-muted" />
        <rect x="56" y="142" width="92" height="10" rx="5" className="ill-line" />
        <rect x="56" y="164" width="70" height="10" rx="5" className="ill-line" />
        <rect x="56" y="186" width="84" height="10" rx="5" className="ill-line" />
        <rect x="56" y="222" width="92" height="38" rx="6" className="ill-line" />
      </g>
      <path d="M176 200h64" className="ill-flow" fill="none" />
      <path d="M232 190l12 10-12 10" className="ill-flow" fill="none" />
      <g>
        <rect x="262" y="60" width="182" height="72" rx="14" className="ill-card" />
        <circle cx="296" cy="96" r="14" className="ill-accent" />
        <rect x="322" y="84" width="96" height="9" rx="4.5" className="ill-line-strong" />
        <rect x="322" y="101" width="64" height="9" rx="4.5" className="ill-line" />
      </g>
      <g>
        <rect x="262" y="164" width="182" height="72" rx="14" className="ill-card" />
        <circle cx="296" cy="200" r="14" className="ill-brand" />
        <rect x="322" y="188" width="104" height="9" rx="4.5" className="ill-line-strong" />
        <rect x="322" y="205" width="72" height="9" rx="4.5" className="ill-line" />
      </g>
      <g>
        <rect x="262" y="268" width="182" height="72" rx="14" className="ill-card" />
        <circle cx="296" cy="304" r="14" className="ill-success" />
        <rect x="322" y="292" width="88" height="9" rx="4.5" className="ill-line-strong" />
        <rect x="322" y="309" width="58" height="9" rx="4.5" className="ill-line" />
      </g>
      <path d="M353 132v32M353 236v32" className="ill-link" fill="none" />
      <path d="M289 96l5 5 9-10" className="ill-check" fill="none" />
      <path d="M289 200l5 5 9-10" className="ill-check" fill="none" />
      <path d="M289 304l5 5 9-10" className="ill-check" fill="none" />
    </svg>
  )
}
