// Spending per day: a bar per UTC day of what completed tasks were charged, and the period's totals.
import { BarChart } from '../ui/Charts';
import { formatCents, formatCount, shortDay } from '../ui/format';
import type { Spend } from './queries';

const SERIES = [{ name: 'Charged', color: '#4338ca' }];

export function SpendChart({ spend }: { spend: Spend }) {
  const completed = spend.days.reduce((sum, day) => sum + day.completedTasks, 0);
  return (
    <>
      <dl className="ov-totals">
        <div>
          <dt>Charged</dt>
          <dd>{formatCents(spend.totalChargedCents)}</dd>
        </div>
        <div>
          <dt>Tasks completed</dt>
          <dd>{formatCount(completed)}</dd>
        </div>
        <div>
          <dt>Deposited</dt>
          <dd>{formatCents(spend.totalDepositedCents)}</dd>
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
