import { useTranslation } from '../texts.tsx'
import { teamPath, type TeamMember } from '#shared/team.ts'
import { MoreLink } from './icon-card.tsx'
import { Portrait } from './portrait.tsx'

/** A co-founder's card: portrait, name, role, an optional teaser, and the link to the profile. */
export function TeamCard({
  member,
  hasTeaser = false,
}: {
  member: TeamMember
  hasTeaser?: boolean
}) {
  const { t } = useTranslation(['team', 'about'])
  const texts = `members.${member.key}` as const
  return (
    <li className="team-card">
      <Portrait slug={member.slug} alt={t(`${texts}.portraitAlt`)} />
      <div className="team-card-body">
        <h3>{member.name}</h3>
        <p className="team-role">{t(`${texts}.role`)}</p>
        {hasTeaser ? <p>{t(`${texts}.teaser`)}</p> : null}
        <MoreLink to={teamPath(member.slug)} label={t('about:team.readMore')} name={member.name} />
      </div>
    </li>
  )
}
