import type { ReactNode } from 'react'
import { useTranslation } from '../texts.tsx'
import type { ScreenPage } from '#shared/pages.ts'
import { contactLink } from '#shared/contact-fields.ts'
import {
  otherServices,
  service as serviceOf,
  serviceNamespace,
  servicePath,
  type Service,
} from '#shared/services.ts'
import { usePageTexts } from '../use-page-texts.ts'
import { Breadcrumbs } from '../components/breadcrumbs.tsx'
import { CtaBand } from '../components/cta-band.tsx'
import { Icon } from '../components/icons.tsx'
import { LocalizedLink } from '../components/localized-link.tsx'
import { PageMeta } from '../components/page-meta.tsx'
import { Section } from '../components/section.tsx'
import { SecurityCapabilities, SecurityFrameworks } from '../components/security-sections.tsx'
import { SupportTiers } from '../components/support-tiers.tsx'
import type { ScreenProps } from '../routes.tsx'
import '../styles/pages/service.css'

type SectionProps = { service: Service }

/** The page's sections by name, in the order its entry in `shared/services.ts` lists them. */
const SECTIONS: Record<Service['sections'][number], (props: SectionProps) => ReactNode> = {
  benefits: Benefits,
  offerings: Offerings,
  process: Process,
  faq: Faq,
  securityCapabilities: SecurityCapabilities,
  securityFrameworks: SecurityFrameworks,
  supportTiers: SupportTiers,
}

/** The service's own texts, typed from the pattern every service file has. */
function useServiceTexts(service: Service) {
  return useTranslation(serviceNamespace(service.slug)).t
}

/** One pattern for every service page, fed by the service's entry and its own texts. */
export function ServicePage({ page }: ScreenProps<ScreenPage<'service'>>) {
  const service = serviceOf(page.service)
  const t = useServiceTexts(service)
  const { badge, title } = usePageTexts(page)
  const contact = contactLink({ service: service.interest })

  return (
    <>
      <PageMeta page={page} />

      <section className="page-hero" aria-labelledby="service-title">
        <div className="container">
          <Breadcrumbs page={page} />
          <div className="page-hero-grid">
            <div>
              <p className="badge">
                <Icon name={service.icon} />
                {badge}
              </p>
              <h1 id="service-title">{title}</h1>
              <p className="page-lead">{t('hero.subtitle')}</p>
              <div className="hero-actions">
                <LocalizedLink to={contact} className="button button-primary button-large">
                  {t('cta.button')}
                  <Icon name="arrowRight" />
                </LocalizedLink>
              </div>
            </div>
            <span className="page-hero-icon" aria-hidden="true">
              <Icon name={service.icon} />
            </span>
          </div>
        </div>
      </section>

      {service.sections.map((key) => {
        const Part = SECTIONS[key]
        return <Part key={key} service={service} />
      })}

      <CtaBand
        id="service-cta"
        title={t('cta.title')}
        text={t('cta.text')}
        button={t('cta.button')}
        to={contact}
      />

      <RelatedServices service={service} />
    </>
  )
}

function Benefits({ service }: SectionProps) {
  const t = useServiceTexts(service)
  return (
    <Section id="benefits" title={t('benefits.heading')}>
      <ul className="benefit-grid">
        {t('benefits.items', { returnObjects: true }).map((item) => (
          <li key={item.title} className="benefit">
            <Icon name="check" className="benefit-icon" />
            <h3>{item.title}</h3>
            <p>{item.text}</p>
          </li>
        ))}
      </ul>
    </Section>
  )
}

function Offerings({ service }: SectionProps) {
  const t = useServiceTexts(service)
  return (
    <Section id="offerings" title={t('offerings.heading')} intro={t('offerings.intro')} isMuted>
      <div className="offering-grid">
        {t('offerings.groups', { returnObjects: true }).map((group) => (
          <section key={group.title} className="offering">
            <h3>{group.title}</h3>
            <ul className="check-list">
              {group.items.map((item) => (
                <li key={item}>
                  <Icon name="check" />
                  <span>{item}</span>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </Section>
  )
}

function Process({ service }: SectionProps) {
  const t = useServiceTexts(service)
  const { t: ts } = useTranslation('services')
  return (
    <Section id="process" title={t('process.heading')}>
      <ol className="process-steps">
        {t('process.steps', { returnObjects: true }).map((step, index) => (
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
  )
}

function Faq({ service }: SectionProps) {
  const t = useServiceTexts(service)
  return (
    <Section id="faq" title={t('faq.heading')} isMuted>
      <div className="faq">
        {t('faq.items', { returnObjects: true }).map((item) => (
          <details key={item.question} className="faq-item">
            <summary>{item.question}</summary>
            <p>{item.answer}</p>
          </details>
        ))}
      </div>
    </Section>
  )
}

function RelatedServices({ service }: SectionProps) {
  const { t } = useTranslation('services')
  const { t: tc } = useTranslation(['common', 'service-cards'])
  return (
    <nav className="section related" aria-labelledby="related-title">
      <div className="container">
        <h2 id="related-title" className="section-title">
          {t('pattern.related')}
        </h2>
        <ul className="related-list">
          {otherServices(service.slug).map((other) => (
            <li key={other.slug}>
              <LocalizedLink to={servicePath(other.slug)} className="related-link">
                <Icon name={other.icon} />
                <span>{tc(`service-cards:${other.slug}.name`)}</span>
                <Icon name="arrowRight" />
              </LocalizedLink>
            </li>
          ))}
        </ul>
      </div>
    </nav>
  )
}
