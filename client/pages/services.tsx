import { useTranslation } from 'react-i18next'
import { SERVICE_SLUGS, servicePath } from '#shared/routes.ts'
import { Breadcrumbs } from '../components/breadcrumbs.tsx'
import { CtaBand } from '../components/cta-band.tsx'
import {
  ArrowRightIcon,
  CheckIcon,
  LayersIcon,
  LockIcon,
  RouteIcon,
  ServerIcon,
} from '../components/icons.tsx'
import { LocalizedLink } from '../components/localized-link.tsx'
import { PageMeta } from '../components/page-meta.tsx'
import { ServiceIcon } from '../components/service-icon.tsx'
import { Section } from '../components/section.tsx'
import { PageHero } from '../components/page-hero.tsx'

const APPROACH = [
  { key: 'oneTeam', Icon: LayersIcon },
  { key: 'germanHosting', Icon: ServerIcon },
  { key: 'documented', Icon: LockIcon },
  { key: 'fixedScope', Icon: RouteIcon },
] as const

/** `/services`: all six services with summaries and links. */
export function ServicesPage() {
  const { t } = useTranslation('services')
  const { t: tc } = useTranslation()
  return (
    <>
      <PageMeta title={t('meta.title')} description={t('meta.description')} />

      <PageHero
        id="services"
        breadcrumbs={<Breadcrumbs items={[{ label: tc('nav.services') }]} />}
        badge={t('hero.badge')}
        title={t('hero.title')}
        lead={t('hero.subtitle')}
      />

      <section className="section" aria-label={tc('nav.services')}>
        <div className="container">
          <ul className="overview-grid">
            {SERVICE_SLUGS.map((slug) => (
              <li key={slug} className="overview-card">
                <span className="icon-badge">
                  <ServiceIcon slug={slug} />
                </span>
                <h2>{tc(`services.${slug}`)}</h2>
                <p>{t(`cards.${slug}.summary`)}</p>
                <ul className="check-list">
                  {t(`cards.${slug}.highlights`, { returnObjects: true }).map((item) => (
                    <li key={item}>
                      <CheckIcon />
                      <span>{item}</span>
                    </li>
                  ))}
                </ul>
                <LocalizedLink to={servicePath(slug)} className="text-link">
                  {t('explore')}
                  <span className="visually-hidden">: {tc(`services.${slug}`)}</span>
                  <ArrowRightIcon />
                </LocalizedLink>
              </li>
            ))}
          </ul>
        </div>
      </section>

      <Section id="approach" title={t('approach.heading')} isMuted>
        <ul className="benefit-grid">
          {APPROACH.map(({ key, Icon }) => (
            <li key={key} className="benefit">
              <Icon className="benefit-icon" />
              <h3>{t(`approach.items.${key}.title`)}</h3>
              <p>{t(`approach.items.${key}.text`)}</p>
            </li>
          ))}
        </ul>
      </Section>

      <CtaBand
        id="services-cta"
        title={t('cta.title')}
        text={t('cta.text')}
        button={t('cta.button')}
        to="/contact"
      />
    </>
  )
}
