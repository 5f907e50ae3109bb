// Money per day: for each UTC day, what came in (deposits with their bonuses) and what went out (the
// charges of completed tasks) as two bars side by side on a value axis, and the period's totals so they
// add up to the balance's change: what was credited, the administrator's adjustments (a debit is
// negative), less what was charged.
import { signedCents } from '../billing/LedgerTable';
import { BarChart } from '../ui/Charts';
import { formatAxisCents } from '../ui/chartScale';
import { formatCents, formatCount, shortDay } from '../ui/format';
import { spendBars, SPEND_SERIES } from './spend';
import type { Spend } from './queries';

/** Whether the period saw any money move (a chart of zeros says nothing). */
export const spendIsEmpty = (spend: Spend): boolean => spend.totalChargedCents === 0 && spend.totalDepositedCents === 0 && spend.totalAdjustedCents === 0;

export function SpendChart({ spend }: { spend: Spend }) {
  const completed = spend.days.reduce((sum, day) => sum + day.completedTasks, 0);
  const net = spend.totalDepositedCents + spend.totalAdjustedCents - spend.totalChargedCents;
  const adjusted = spend.days.some((day) => day.adjustedCents !== 0);
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
        title={`Money in and out per day, last ${spend.days.length} days`}
        labelHeading="Date"
        data={spendBars(spend.days, shortDay)}
        series={SPEND_SERIES}
        grouped
        formatValue={formatCents}
        formatTick={formatAxisCents}
      />
      {adjusted ? <p className="ov-chart-note">A credit adjustment by Concord counts as money in on its day, a debit as money out.</p> : null}
    </>
  );
}
