// A deposit in one sentence, as a person would say it: "Paid $600.00 by card on 25 Nov 2026 at 12:44 UTC,
// plus a $30.00 bonus", instead of a row of codes (SUCCEEDED, card, Decided …).
import { formatCents } from '../ui/format';
import type { Deposit } from './queries';

const METHOD_WORDS: Record<Deposit['method'], string> = { card: 'by card', mobile_money: 'by mobile money' };

const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' });
const clock = new Intl.DateTimeFormat('en-GB', { hour: '2-digit', minute: '2-digit', timeZone: 'UTC' });

/** "25 Nov 2026 at 12:44 UTC". */
export function when(iso: string): string {
  const date = new Date(iso);
  return `${day.format(date)} at ${clock.format(date)} UTC`;
}

type DepositFacts = Pick<Deposit, 'status' | 'amountCents' | 'bonusCents' | 'method' | 'createdAt' | 'decidedAt'>;

export function depositSentence(deposit: DepositFacts): string {
  const amount = formatCents(deposit.amountCents);
  const method = METHOD_WORDS[deposit.method] ?? `by ${deposit.method}`;
  const decided = deposit.decidedAt ? ` on ${when(deposit.decidedAt)}` : '';
  switch (deposit.status) {
    case 'SUCCEEDED':
      return `Paid ${amount} ${method}${decided}${deposit.bonusCents > 0 ? `, plus a ${formatCents(deposit.bonusCents)} bonus` : ''}`;
    case 'PENDING':
      return `${amount} ${method}, started on ${when(deposit.createdAt)}: not paid yet`;
    case 'CANCELLED':
      return `${amount} ${method}, cancelled at the checkout${decided}: nothing was charged`;
    case 'FAILED':
      return `${amount} ${method}, refused by the payment provider${decided}: nothing was charged`;
    default:
      return `${amount} ${method}, started on ${when(deposit.createdAt)}`;
  }
}
