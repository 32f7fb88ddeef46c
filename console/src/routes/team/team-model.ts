import type { TeamUser } from '../../api/team';
import { when } from '../../format';

/** A member's invitation in words: pending until when, expired, or nothing to say. */
export function invitationText(invitation: TeamUser['invitation']): string {
  if (!invitation) return '—';
  if (invitation.status === 'expired') return `Expired ${when(invitation.expires_at)}`;
  return `${invitation.sent_at ? 'Sent' : 'Queued'}; valid until ${when(invitation.expires_at)}`;
}
