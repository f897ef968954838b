import { useTranslation } from '../texts.tsx'
import { formatList, LOCALE_INFO } from '#shared/locales.ts'
import type { ScreenPage } from '#shared/pages.ts'
import { TEAM, teamMember } from '#shared/team.ts'
import { typeset } from '#shared/typography.ts'
import { useApp } from '../app-context.tsx'
import { usePageTexts } from '../use-page-texts.ts'
import { Breadcrumbs } from '../components/breadcrumbs.tsx'
import { TeamCard } from '../components/team-card.tsx'
import { Icon } from '../components/icons.tsx'
import { LocalizedLink } from '../components/localized-link.tsx'
import { PageMeta } from '../components/page-meta.tsx'
import { Portrait } from '../components/portrait.tsx'
import type { ScreenProps } from '../routes.tsx'
import { Section } from '../components/section.tsx'
import '../styles/pages/about.css'

/** `/team/{slug}`: one co-founder's profile. */
export function TeamPage({ page }: ScreenProps<ScreenPage<'team'>>) {
  const slug = page.member
  const member = teamMember(slug)
  const { t } = useTranslation('team')
  const { locale } = useApp()
  const { badge, title } = usePageTexts(page)
  const key = member.key
  const languages = typeset(
    formatList(
      member.languages.map(
        (code) =>
          new Intl.DisplayNames([LOCALE_INFO[locale].iso], { type: 'language' }).of(code) ?? code,
      ),
      locale,
    ),
    locale,
  )
  const others = TEAM.filter((other) => other.slug !== slug)
  return (
    <>
      <PageMeta page={page} />
      <section className="page-hero" aria-labelledby="member-name">
        <div className="container">
          <Breadcrumbs page={page} />
          <div className="profile">
            <Portrait
              slug={slug}
              alt={t(`members.${key}.portraitAlt`)}
              className="profile-portrait"
              isPriority
            />
            <div>
              <h1 id="member-name">{title}</h1>
              <p className="team-role">{badge}</p>
              {t(`members.${key}.bio`, { returnObjects: true }).map((paragraph) => (
                <p key={paragraph}>{paragraph}</p>
              ))}
              <p>
                <strong>{t('labels.languages')}:</strong> {languages}
              </p>
              <LocalizedLink to="/contact" className="button button-primary">
                {t('labels.contact')}
                <Icon name="arrowRight" />
              </LocalizedLink>
            </div>
          </div>
        </div>
      </section>

      <Section id="skills" title={t('labels.skills')}>
        <ul className="skill-grid">
          {t(`members.${key}.skills`, { returnObjects: true }).map((category) => (
            <li key={category.title} className="skill-category">
              <h3>{category.title}</h3>
              <ul className="skill-tags">
                {category.items.map((item) => (
                  <li key={item}>{item}</li>
                ))}
              </ul>
            </li>
          ))}
        </ul>
      </Section>

      <Section id="other" title={t('labels.otherMember')} isMuted>
        <ul className="team-grid team-grid-compact">
          {others.map((other) => (
            <TeamCard key={other.slug} member={other} />
          ))}
        </ul>
        <p className="section-footer">
          <LocalizedLink to="/about" className="button button-secondary">
            {t('labels.backToAbout')}
          </LocalizedLink>
        </p>
      </Section>
    </>
  )
}
