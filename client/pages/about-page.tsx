import { useTranslation } from '../texts.tsx'
import { COMPANY } from '#shared/company.ts'
import { TEAM } from '#shared/team.ts'
import { IconCard } from '../components/icon-card.tsx'
import { TeamCard } from '../components/team-card.tsx'
import { CtaBand } from '../components/cta-band.tsx'
import { PageMeta } from '../components/page-meta.tsx'
import { Section } from '../components/section.tsx'
import { PageHero } from '../components/page-hero.tsx'
import type { ScreenProps } from '../routes.tsx'
import '../styles/pages/about.css'

const VALUES = [
  { key: 'clarity', icon: 'layers' },
  { key: 'ownership', icon: 'shield' },
  { key: 'longevity', icon: 'route' },
] as const

/** `/about`: the story, three values and the two co-founders. */
export function AboutPage({ page }: ScreenProps) {
  const { t } = useTranslation('about')
  const values = { foundingYear: COMPANY.foundingYear }
  return (
    <>
      <PageMeta page={page} />

      <PageHero page={page} id="about" lead={t('hero.subtitle')} />

      <section className="section" aria-labelledby="story-title">
        <div className="container story-grid">
          <div className="story">
            <h2 id="story-title">{t('story.heading')}</h2>
            {t('story.paragraphs', { ...values, returnObjects: true }).map((paragraph) => (
              <p key={paragraph}>{paragraph}</p>
            ))}
          </div>
          <dl className="fact-card">
            <div>
              <dt>{t('facts.founded')}</dt>
              <dd>{COMPANY.foundingYear}</dd>
            </div>
            <div>
              <dt>{t('facts.headquarters')}</dt>
              <dd>{COMPANY.address.city}</dd>
            </div>
            <div>
              <dt>{t('facts.infrastructure')}</dt>
              <dd>{t('facts.infrastructureValue')}</dd>
            </div>
            <div>
              <dt>{t('facts.languages')}</dt>
              <dd>{t('facts.languagesValue')}</dd>
            </div>
          </dl>
        </div>
      </section>

      <Section id="values" title={t('values.heading')} intro={t('values.intro')} isMuted>
        <ul className="card-grid">
          {VALUES.map(({ key, icon }) => (
            <IconCard
              key={key}
              icon={icon}
              title={t(`values.items.${key}.title`)}
              text={t(`values.items.${key}.text`)}
            />
          ))}
        </ul>
      </Section>

      <Section id="team" title={t('team.heading')} intro={t('team.intro')}>
        <ul className="team-grid">
          {TEAM.map((member) => (
            <TeamCard key={member.slug} member={member} hasTeaser />
          ))}
        </ul>
      </Section>

      <CtaBand
        id="about-cta"
        title={t('cta.title')}
        text={t('cta.text')}
        button={t('cta.button')}
        to="/contact"
      />
    </>
  )
}
