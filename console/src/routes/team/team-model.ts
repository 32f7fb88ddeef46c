import type { TeamUser } from '../../api/team';
import { when } from '../../format';
import type { Translate } from '../../i18n/use-t';

/** A member's invitation in words: pending until when, expired, or nothing to say. */
export function invitationText(invitation: TeamUser['invitation'], t: Translate): string {
  if (!invitation) return '—';
  if (invitation.status === 'expired') return t('team.invitation.expired', { time: when(invitation.expires_at) });
  return t('team.invitation.pending', { sent: invitation.sent_at ? 'yes' : 'no', time: when(invitation.expires_at) });
}

/** A role's name ("administrator") and what it may do, in the console's language. */
export function roleName(role: string, t: Translate): string {
  return t('team.role.name', { role });
}

const ROLES_WITH_SUMMARY = ['administrator', 'editor', 'support', 'viewer'];

export function roleSummary(role: string, t: Translate): string {
  return ROLES_WITH_SUMMARY.includes(role) ? t(`team.role.summary.${role}`) : '';
}
