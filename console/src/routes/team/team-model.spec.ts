import { englishT } from '../../i18n/english';
import { invitationText } from './team-model';

describe('invitationText', () => {
  it('says nothing for no invitation, when a pending one ends and whether it was sent, and when an expired one ended', () => {
    expect(invitationText(null, englishT)).toBe('—');
    expect(invitationText({ status: 'pending', expires_at: '2026-12-05T10:00:00.000Z', sent_at: null }, englishT)).toBe('Queued; valid until 5 Dec 2026, 10:00 UTC');
    expect(invitationText({ status: 'pending', expires_at: '2026-12-05T10:00:00.000Z', sent_at: '2026-11-28T10:00:00.000Z' }, englishT)).toBe('Sent; valid until 5 Dec 2026, 10:00 UTC');
    expect(invitationText({ status: 'expired', expires_at: '2026-12-05T10:00:00.000Z', sent_at: '2026-11-28T10:00:00.000Z' }, englishT)).toBe('Expired 5 Dec 2026, 10:00 UTC');
  });
});
