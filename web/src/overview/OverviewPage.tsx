// The buyer's home: balance, tasks by status, the open tasks at risk of missing their deadline (once
// there are tasks), spending over 30 days and the latest events, all live.
// The queries start together on mount and each part draws as soon as its own data is there: the stat
// cards never wait for the (slower) spend chart. Each role sees what it may read (billing no tasks, a
// member no money) and is offered only what it may do.
import { useMemo } from 'react';
import { Link } from 'react-router';
import { useMeta } from '../api/meta';
import { useBalance, isLowBalance } from '../billing/balance';
import { BalanceStats } from '../billing/BalanceStats';
import { useLedgerStarted } from '../billing/queries';
import { usePermission } from '../organisations/Permitted';
import { useProjectOptions, useTaskCounts } from '../tasks/queries';
import { AtRiskTasks } from '../tasks/AtRiskTasks';
import { Card, PageHeader } from '../ui/Page';
import { EmptyState, ErrorNote, Loading, Notice } from '../ui/Feedback';
import { formatCents, formatCount } from '../ui/format';
import { overviewLead } from './firstRun';
import { GettingStarted } from './GettingStarted';
import { useRecentEvents, useSpend, SPEND_DAYS } from './queries';
import { RecentEvents } from './RecentEvents';
import { taskListPath } from '../links';
import { SpendChart, spendIsEmpty } from './SpendChart';
import { TaskCounts } from './TaskCounts';
import './overview.css';

export function OverviewPage() {
  const readsTasks = usePermission('tasks:read').allowed;
  const writesTasks = usePermission('tasks:write').allowed;
  const readsMoney = usePermission('money:read').allowed;
  const addsCredits = usePermission('money:write').allowed;
  const balance = useBalance({ live: true });
  const meta = useMeta();
  const counts = useTaskCounts({}, { enabled: readsTasks });
  const events = useRecentEvents({ enabled: readsTasks });
  const spend = useSpend(SPEND_DAYS, { enabled: readsMoney });
  const ledgerStarted = useLedgerStarted({ enabled: readsMoney });

  const buyer = balance.data;
  const threshold = meta.data?.lowBalanceThresholdCents;
  const low = isLowBalance(buyer, threshold);
  const firstTier = meta.data?.depositBonusTiers.slice().sort((a, b) => a.minCents - b.minCents)[0];
  const lead = overviewLead({ taskTotal: counts.data?.total, ledgerStarted: ledgerStarted.data, lowBalance: low });
  // The first steps are for whoever can take them: creating tasks.
  const gettingStarted = lead.gettingStarted && writesTasks;
  const headerActions = lead.headerActions && (writesTasks || addsCredits);

  return (
    <>
      <PageHeader
        title="Overview"
        description={
          <>
            <span className="ov-live" aria-hidden="true" /> Live: balance, tasks and events update while annotators work.
          </>
        }
        actions={
          headerActions ? (
            <>
              {writesTasks ? (
                <Link className="btn btn-secondary ov-btn-link" to="/import">
                  Import tasks
                </Link>
              ) : null}
              {addsCredits ? (
                <Link className="btn btn-primary ov-btn-link" to="/billing">
                  Add credits
                </Link>
              ) : null}
            </>
          ) : undefined
        }
      />

      {lead.lowBalanceWarning && buyer && threshold !== undefined ? (
        <Notice tone="warning">
          <span className="ov-notice">
            <span>
              <strong>Your balance is low:</strong> {formatCents(buyer.creditBalance)}, under {formatCents(threshold)}. New tasks need available credit to be
              accepted.
            </span>
            {addsCredits ? (
              <Link to="/billing" className="btn btn-primary ov-btn-link">
                Top up
              </Link>
            ) : null}
          </span>
        </Notice>
      ) : null}

      <ErrorNote error={balance.error} />
      <BalanceStats buyer={buyer} lowBalanceThresholdCents={lead.lowBalanceWarning ? threshold : undefined} />

      {gettingStarted ? (
        <GettingStarted
          addsCredits={addsCredits}
          hasBalance={(buyer?.creditBalance ?? 0) > 0}
          bonusHint={firstTier ? `Deposits from ${formatCents(firstTier.minCents)} earn a ${firstTier.percent} % bonus.` : undefined}
        />
      ) : null}

      {readsTasks ? (
        <Card
          title="Tasks by status"
          actions={
            <Link to={taskListPath()}>
              All tasks{counts.data ? ` (${formatCount(counts.data.total)})` : ''} <span aria-hidden="true">→</span>
            </Link>
          }
        >
          <ErrorNote error={counts.error} />
          <TaskCounts counts={counts.data} />
        </Card>
      ) : null}

      {readsTasks && (counts.data?.total ?? 0) > 0 ? <OverviewAtRisk /> : null}

      {readsMoney ? (
        <Card title={`Money in and out, last ${SPEND_DAYS} days`}>
          <div className={spend.data && spendIsEmpty(spend.data) ? undefined : 'ov-chart-slot'}>
            {spend.data ? (
              spendIsEmpty(spend.data) ? (
                <EmptyState title={`No money moved in the last ${SPEND_DAYS} days`}>
                  <p>Deposits, adjustments and the charges of completed tasks appear here, day by day.</p>
                </EmptyState>
              ) : (
                <SpendChart spend={spend.data} />
              )
            ) : spend.error ? (
              <ErrorNote error={spend.error} />
            ) : (
              <Loading label="Loading the chart…" />
            )}
          </div>
        </Card>
      ) : null}

      {readsTasks ? (
        <Card
          title="Recent events"
          actions={
            <Link to="/webhooks">
              Webhooks <span aria-hidden="true">→</span>
            </Link>
          }
        >
          {events.data ? (
            events.data.events.length === 0 ? (
              <EmptyState title="No events yet">
                <p>Each completed or failed task, and a low balance, records an event here and sends it to your webhooks.</p>
              </EmptyState>
            ) : (
              <RecentEvents events={events.data.events} />
            )
          ) : events.error ? (
            <ErrorNote error={events.error} />
          ) : (
            <Loading label="Loading events…" />
          )}
        </Card>
      ) : null}
    </>
  );
}

/** The tasks at risk, each with its project's name, a row a link to it on the task list. */
function OverviewAtRisk() {
  const projects = useProjectOptions();
  const projectNames = useMemo(() => new Map((projects.data ?? []).map((project) => [project.id, project.name])), [projects.data]);
  return <AtRiskTasks pageSize={5} projectNames={projectNames} />;
}
