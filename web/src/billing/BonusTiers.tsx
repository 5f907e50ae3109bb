// The bonus tiers as GET /meta states them, with the tier the typed amount reaches highlighted.
import { formatCents } from '../ui/format';
import { bonusTierFor, type DepositBonusTier } from '@concord/contract';

export function BonusTiers({ tiers, amountCents }: { tiers: readonly DepositBonusTier[]; amountCents: number | null }) {
  const sorted = [...tiers].sort((a, b) => a.minCents - b.minCents);
  const reached = amountCents === null ? undefined : bonusTierFor(amountCents, sorted);
  const first = sorted[0];
  return (
    <section className="bl-tiers" aria-labelledby="bl-tiers-title">
      <h3 id="bl-tiers-title">Deposit bonus</h3>
      <table>
        <caption className="sr-only">Bonus by deposit amount</caption>
        <thead>
          <tr>
            <th scope="col">Deposit</th>
            <th scope="col" className="num">
              Bonus
            </th>
          </tr>
        </thead>
        <tbody>
          {first ? (
            <tr className={amountCents !== null && reached === undefined ? 'bl-tier-reached' : undefined}>
              <td>Under {formatCents(first.minCents)}</td>
              <td className="num">None</td>
            </tr>
          ) : null}
          {sorted.map((tier) => (
            <tr key={tier.minCents} className={reached === tier ? 'bl-tier-reached' : undefined} aria-current={reached === tier || undefined}>
              <td>From {formatCents(tier.minCents)}</td>
              <td className="num">{tier.percent} %</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p className="bl-tiers-note">Credited with the deposit, rounded down to whole cents.</p>
    </section>
  );
}
