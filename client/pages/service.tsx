import { useTranslation } from 'react-i18next'
import { useMatches } from 'react-router-dom'
import { COMPANY } from '#shared/company.ts'
import type { ServiceSlug } from '#shared/routes.ts'
import { servicePath } from '#shared/routes.ts'
import {
  contactPath,
  otherServices,
  SERVICE_INTERESTS_BY_SLUG,
  SERVICE_NAMESPACES,
} from '#shared/services.ts'
import { useApp } from '../app-context.tsx'
import { Breadcrumbs } from '../components/breadcrumbs.tsx'
import { CtaBand } from '../components/cta-band.tsx'
import { ArrowRightIcon, CheckIcon } from '../components/icons.tsx'
import { JsonLd } from '../components/json-ld.tsx'
import { LocalizedLink } from '../components/localized-link.tsx'
import { PageMeta } from '../components/page-meta.tsx'
import { SecurityCapabilities, SecurityFrameworks } from '../components/security-sections.tsx'
import { ServiceIcon } from '../components/service-icon.tsx'
import { SupportTiers } from '../components/support-tiers.tsx'
import type { PageHandle } from '../routes.tsx'
import { Section } from '../components/section.tsx'

/** The copy every service page has (`locales/<lng>/service-<slug>.json`). */
type ServiceCopy = {
  meta: { title: string; description: string }
  hero: { badge: string; title: string; subtitle: string }
  benefits: { heading: string; items: { title: string; text: string }[] }
  offerings: { heading: string; intro: string; groups: { title: string; items: string[] }[] }
  process: { heading: string; steps: { title: string; text: string }[] }
  faq: { heading: string; items: { question: string; answer: string }[] }
  cta: { title: string; text: string; button: string }
}

function useServiceSlug(): ServiceSlug {
  const matches = useMatches()
  const handle = matches.at(-1)?.handle as PageHandle | undefined
  if (!handle?.service) throw new Error('A service page route needs handle.service')
  return handle.service
}

/**
 * The page's texts as one typed object. `useTranslation` subscribes the page to its
 * namespace (re-render when texts arrive or are edited); the bundle is read whole because the
 * six namespaces share one shape.
 */
function useServiceCopy(slug: ServiceSlug): ServiceCopy {
  const namespace = SERVICE_NAMESPACES[slug]
  const { i18n } = useTranslation(namespace)
  return i18n.getResourceBundle(i18n.language, namespace) as ServiceCopy
}

/** One pattern for all six service pages, fed by data and the page's own texts. */
export function ServicePage() {
  const slug = useServiceSlug()
  const copy = useServiceCopy(slug)
  const { t } = useTranslation()
  const { t: ts } = useTranslation('services')
  const { baseUrl, locale } = useApp()
  const contact = contactPath(SERVICE_INTERESTS_BY_SLUG[slug])
  const name = t(`services.${slug}`)

  return (
    <>
      <PageMeta title={copy.meta.title} description={copy.meta.description} />
      <JsonLd
        data={{
          '@context': 'https://schema.org',
          '@type': 'Service',
          name,
          description: copy.meta.description,
          serviceType: name,
          areaServed: ['DE', 'PL'],
          availableLanguage: ['en', 'de', 'pl'],
          inLanguage: locale,
          provider: { '@type': 'Organization', name: COMPANY.legalName, url: baseUrl },
        }}
      />

      <section className="page-hero" aria-labelledby="service-title">
        <div className="container">
          <Breadcrumbs items={[{ label: t('nav.services'), to: '/services' }, { label: name }]} />
          <div className="page-hero-grid">
            <div>
              <p className="badge">
                <ServiceIcon slug={slug} />
                {copy.hero.badge}
              </p>
              <h1 id="service-title">{copy.hero.title}</h1>
              <p className="page-lead">{copy.hero.subtitle}</p>
              <div className="hero-actions">
                <LocalizedLink to={contact} className="button button-primary button-large">
                  {copy.cta.button}
                  <ArrowRightIcon />
                </LocalizedLink>
              </div>
            </div>
            <span className="page-hero-icon" aria-hidden="true">
              <ServiceIcon slug={slug} />
            </span>
          </div>
        </div>
      </section>

      <Section id="benefits" title={copy.benefits.heading}>
        <ul className="benefit-grid">
          {copy.benefits.items.map((item) => (
            <li key={item.title} className="benefit">
              <CheckIcon className="benefit-icon" />
              <h3>{item.title}</h3>
              <p>{item.text}</p>
            </li>
          ))}
        </ul>
      </Section>

      {slug === 'security-compliance' ? (
        <>
          <SecurityCapabilities />
          <SecurityFrameworks />
        </>
      ) : null}

      <Section id="offerings" title={copy.offerings.heading} intro={copy.offerings.intro} isMuted>
        <div className="offering-grid">
          {copy.offerings.groups.map((group) => (
            <section key={group.title} className="offering">
              <h3>{group.title}</h3>
              <ul className="check-list">
                {group.items.map((item) => (
                  <li key={item}>
                    <CheckIcon />
                    <span>{item}</span>
                  </li>
                ))}
              </ul>
            </section>
          ))}
        </div>
      </Section>

      {slug === 'managed-it' ? <SupportTiers /> : null}

      <Section id="process" title={copy.process.heading}>
        <ol className="process-steps">
          {copy.process.steps.map((step, index) => (
            <li key={step.title} className="process-step">
              <span className="step-number" aria-hidden="true">
                {index + 1}
              </span>
              <h3>
                <span className="visually-hidden">
                  {ts('pattern.step')} {index + 1}:{' '}
                </span>
                {step.title}
              </h3>
              <p>{step.text}</p>
            </li>
          ))}
        </ol>
      </Section>

      <Section id="faq" title={copy.faq.heading} isMuted>
        <div className="faq">
          {copy.faq.items.map((item) => (
            <details key={item.question} className="faq-item">
              <summary>{item.question}</summary>
              <p>{item.answer}</p>
            </details>
          ))}
        </div>
      </Section>

      <CtaBand
        id="service-cta"
        title={copy.cta.title}
        text={copy.cta.text}
        button={copy.cta.button}
        to={contact}
      />

      <nav className="section related" aria-labelledby="related-title">
        <div className="container">
          <h2 id="related-title" className="section-title">
            {ts('pattern.related')}
          </h2>
          <ul className="related-list">
            {otherServices(slug).map((other) => (
              <li key={other}>
                <LocalizedLink to={servicePath(other)} className="related-link">
                  <ServiceIcon slug={other} />
                  <span>{t(`services.${other}`)}</span>
                  <ArrowRightIcon />
                </LocalizedLink>
              </li>
            ))}
          </ul>
        </div>
      </nav>
    </>
  )
}
