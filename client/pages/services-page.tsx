import { useTranslation } from '../texts.tsx'
import { SERVICES, servicePath } from '#shared/services.ts'
import { IconCard, MoreLink } from '../components/icon-card.tsx'
import { CtaBand } from '../components/cta-band.tsx'
import { Icon } from '../components/icons.tsx'
import { PageMeta } from '../components/page-meta.tsx'
import { Section } from '../components/section.tsx'
import { PageHero } from '../components/page-hero.tsx'
import type { ScreenProps } from '../routes.tsx'
import '../styles/pages/service.css'

const APPROACH = [
  { key: 'oneTeam', icon: 'layers' },
  { key: 'germanHosting', icon: 'server' },
  { key: 'documented', icon: 'lock' },
  { key: 'fixedScope', icon: 'route' },
] as const

/** `/services`: all six services with summaries and links. */
export function ServicesPage({ page }: ScreenProps) {
  const { t } = useTranslation('services')
  const { t: tc } = useTranslation(['common', 'service-cards'])
  return (
    <>
      <PageMeta page={page} />

      <PageHero page={page} id="services" lead={t('hero.subtitle')} />

      <section className="section" aria-label={tc('nav.services')}>
        <div className="container">
          <ul className="overview-grid">
            {SERVICES.map(({ slug, icon }) => (
              <IconCard
                key={slug}
                className="overview-card"
                heading="h2"
                icon={icon}
                title={tc(`service-cards:${slug}.name`)}
                text={tc(`service-cards:${slug}.summary`)}
              >
                <ul className="check-list">
                  {tc(`service-cards:${slug}.highlights`, { returnObjects: true }).map((item) => (
                    <li key={item}>
                      <Icon name="check" />
                      <span>{item}</span>
                    </li>
                  ))}
                </ul>
                <MoreLink
                  to={servicePath(slug)}
                  label={t('explore')}
                  name={tc(`service-cards:${slug}.name`)}
                />
              </IconCard>
            ))}
          </ul>
        </div>
      </section>

      <Section id="approach" title={t('approach.heading')} isMuted>
        <ul className="benefit-grid">
          {APPROACH.map(({ key, icon }) => (
            <li key={key} className="benefit">
              <Icon name={icon} className="benefit-icon" />
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
