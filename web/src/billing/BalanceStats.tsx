// Balance, reserved and available as stat cards. Each card is a group named by its label ("Balance",
// "Reserved", "Available") so a person with a screen reader, and an end-to-end test, can find a figure.
import type { ReactNode } from 'react';
import { StatCard } from '../ui/Charts';
import { formatCents } from '../ui/format';
import { isLowBalance, type BuyerAccount } from './balance';

interface BalanceStatsProps {
  buyer: BuyerAccount | undefined;
  /** Below this balance the balance card turns amber (GET /meta's lowBalanceThresholdCents). */
  lowBalanceThresholdCents?: number | undefined;
  children?: ReactNode;
}

export function BalanceStats({ buyer, lowBalanceThresholdCents, children }: BalanceStatsProps) {
  const show = (cents: number | undefined) => (cents === undefined ? '…' : formatCents(cents));
  const low = isLowBalance(buyer, lowBalanceThresholdCents);
  return (
    <div className="stats" aria-busy={buyer === undefined || undefined}>
      <StatCard
        label="Balance"
        value={show(buyer?.creditBalance)}
        hint={low && lowBalanceThresholdCents !== undefined ? `Under ${formatCents(lowBalanceThresholdCents)}` : 'Money held'}
        {...(low ? { tone: 'warning' as const } : {})}
      />
      <StatCard label="Reserved" value={show(buyer?.reservedCents)} hint="Held for open tasks" />
      <StatCard label="Available" value={show(buyer?.availableCents)} hint="Balance − reserved" />
      {children}
    </div>
  );
}
