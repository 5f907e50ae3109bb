// Money per day: a bar per UTC day of what completed tasks were charged, and the period's totals so they
// add up to the balance's change: what was credited (deposits with their bonuses), the administrator's
// adjustments (a debit is negative), less what was charged.
import { signedCents } from '../billing/LedgerTable';
import { BarChart } from '../ui/Charts';
import { formatCents, formatCount, shortDay } from '../ui/format';
import type { Spend } from './queries';

const SERIES = [{ name: 'Charged', color: '#4338ca' }];

/** Whether the period saw any money move (a chart of zeros says nothing). */
export const spendIsEmpty = (spend: Spend): boolean => spend.totalChargedCents === 0 && spend.totalDepositedCents === 0 && spend.totalAdjustedCents === 0;

export function SpendChart({ spend }: { spend: Spend }) {
  const completed = spend.days.reduce((sum, day) => sum + day.completedTasks, 0);
  const net = spend.totalDepositedCents + spend.totalAdjustedCents - spend.totalChargedCents;
  return (
    <>
      <dl className="ov-totals">
        <div>
          <dt>Credited (deposits and bonuses)</dt>
          <dd>{signedCents(spend.totalDepositedCents)}</dd>
        </div>
        <div>
          <dt>Adjustments by Concord</dt>
          <dd>{signedCents(spend.totalAdjustedCents)}</dd>
        </div>
        <div>
          <dt>
            Charged ({formatCount(completed)} {completed === 1 ? 'task' : 'tasks'} completed)
          </dt>
          <dd>{signedCents(-spend.totalChargedCents)}</dd>
        </div>
        <div className="ov-total-net">
          <dt>Change of balance</dt>
          <dd>{signedCents(net)}</dd>
        </div>
      </dl>
      <BarChart
        title={`Charged per day, last ${spend.days.length} days`}
        data={spend.days.map((day) => ({ label: shortDay(day.date), values: [day.chargedCents] }))}
        series={SERIES}
        formatValue={formatCents}
      />
    </>
  );
}
