// The members page's own rules, pure: what is wrong with an address before it is sent, and how many of
// the organisation's seats are taken.
import { MAX_ORGANISATION_SEATS } from '@concord/contract';
import { formatCount } from '../ui/format';

/** What is wrong with an address to invite, or undefined when the service may take it. */
export function inviteProblem(email: string): string | undefined {
  const text = email.trim();
  if (text === '') return 'Give the e-mail address to invite.';
  if (!/^[^\s@]+@[^\s@]+$/.test(text)) return `“${text}” is not an e-mail address.`;
  return undefined;
}

const plural = (n: number, one: string, many: string) => `${formatCount(n)} ${n === 1 ? one : many}`;

/** "3 members and 1 pending invitation: 4 of 200 seats taken." */
export function seatsLine(members: number, invitations: number): string {
  return `${plural(members, 'member', 'members')} and ${plural(invitations, 'pending invitation', 'pending invitations')}: ${formatCount(members + invitations)} of ${formatCount(MAX_ORGANISATION_SEATS)} seats taken.`;
}
