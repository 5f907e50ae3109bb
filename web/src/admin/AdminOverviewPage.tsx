// The platform at a glance: accounts, tasks by status, revenue and pending payouts, and 30 days of
// activity (tasks per day by outcome, answers per day). Polled with back-off while the page is open.
import { Link } from 'react-router';
import { BarChart, StatCard } from '../ui/Charts';
import { ErrorNote, Loading } from '../ui/Feedback';
import { Card, PageHeader } from '../ui/Page';
import { formatCents, formatCount, shortDay } from '../ui/format';
import { usePlatformDaily, usePlatformStats, type PlatformDay, type PlatformStats } from './queries';
import './admin.css';

const DAYS = 30;

export function AdminOverviewPage() {
  const stats = usePlatformStats();
  const daily = usePlatformDaily(DAYS);
  return (
    <>
      <PageHeader title="Platform" description="Every buyer, app and annotator on this Concord. Figures refresh on their own." />
      {stats.isPending ? <Loading label="Loading platform totals…" /> : stats.isError ? <ErrorNote error={stats.error} /> : <Totals stats={stats.data} />}
      <div className="grid-2">
        <Card title={`Tasks per day, last ${DAYS} days`}>
          {daily.isPending ? <Loading /> : daily.isError ? <ErrorNote error={daily.error} /> : <TasksChart days={daily.data.days} />}
        </Card>
        <Card title={`Answers per day, last ${DAYS} days`}>
          {daily.isPending ? <Loading /> : daily.isError ? <ErrorNote error={daily.error} /> : <AnswersChart days={daily.data.days} />}
        </Card>
      </div>
    </>
  );
}

function Totals({ stats }: { stats: PlatformStats }) {
  const { tasks, pendingPayouts } = stats;
  const open = tasks.PENDING + tasks.VALIDATING;
  return (
    <>
      <section aria-labelledby="totals-accounts">
        <h2 className="stats-heading" id="totals-accounts">
          Accounts and money
        </h2>
        <div className="stats">
          <StatCard label="Buyers" value={formatCount(stats.buyers)} hint={<Link to="/admin/buyers">See buyers</Link>} />
          <StatCard label="Developers" value={formatCount(stats.developers)} hint={<Link to="/admin/developers">See apps</Link>} />
          <StatCard label="Annotators" value={formatCount(stats.annotators)} hint={<Link to="/admin/annotators">Suspended ones</Link>} />
          <StatCard label="Revenue" value={formatCents(stats.revenueCents)} hint="Charged for completed tasks" />
          <StatCard
            label="Pending payouts"
            value={formatCents(pendingPayouts.cents)}
            tone={pendingPayouts.count > 0 ? 'warning' : undefined}
            hint={pendingPayouts.count > 0 ? <Link to="/admin/payouts">{formatCount(pendingPayouts.count)} to decide</Link> : 'Nothing to decide'}
          />
        </div>
      </section>
      <section aria-labelledby="totals-tasks">
        <h2 className="stats-heading" id="totals-tasks">
          Tasks by status
        </h2>
        <div className="stats">
          <StatCard label="Pending" value={formatCount(tasks.PENDING)} hint="Waiting for answers" />
          <StatCard label="Validating" value={formatCount(tasks.VALIDATING)} hint={`${formatCount(open)} open in all`} />
          <StatCard label="Completed" value={formatCount(tasks.COMPLETED)} />
          <StatCard label="Failed" value={formatCount(tasks.FAILED)} hint="No agreement; not charged" />
        </div>
      </section>
    </>
  );
}

const sum = (days: PlatformDay[], pick: (d: PlatformDay) => number) => days.reduce((total, d) => total + pick(d), 0);

function TasksChart({ days }: { days: PlatformDay[] }) {
  return (
    <>
      <BarChart
        title="Tasks per day by outcome"
        labelHeading="Date"
        formatValue={formatCount}
        series={[
          { name: 'Completed', color: '#0f7a3d' },
          { name: 'Failed', color: '#b42318' },
        ]}
        data={days.map((d) => ({ label: shortDay(d.date), values: [d.completed, d.failed] }))}
      />
      <p className="chart-totals">
        <span>
          <strong>{formatCount(sum(days, (d) => d.completed))}</strong> completed
        </span>
        <span>
          <strong>{formatCount(sum(days, (d) => d.failed))}</strong> failed
        </span>
        <span>
          <strong>{formatCount(sum(days, (d) => d.created))}</strong> created
        </span>
      </p>
    </>
  );
}

function AnswersChart({ days }: { days: PlatformDay[] }) {
  const total = sum(days, (d) => d.answers);
  return (
    <>
      <BarChart
        title="Answers per day"
        labelHeading="Date"
        formatValue={formatCount}
        series={[{ name: 'Answers', color: '#4338ca' }]}
        data={days.map((d) => ({ label: shortDay(d.date), values: [d.answers] }))}
      />
      <p className="chart-totals">
        <span>
          <strong>{formatCount(total)}</strong> answers to regular tasks
        </span>
        <span>
          <strong>{formatCount(Math.round(total / Math.max(1, days.length)))}</strong> a day on average
        </span>
      </p>
    </>
  );
}
