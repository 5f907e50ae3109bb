// Annotators of every app with their live reputation. Suspended ones first (golden accuracy under 50 %
// after at least 10 golden answers); an admin reinstates them, after which only golden answers given
// since count toward a new suspension.
import { useState } from 'react';
import { ConfirmButton } from '../ui/Dialog';
import { EmptyState, ErrorNote, Loading, Notice } from '../ui/Feedback';
import { TextField } from '../ui/Field';
import { Card, PageHeader } from '../ui/Page';
import type { Column } from '../ui/Table';
import { AdminTable } from './AdminTable';
import { formatCount, formatPercent } from '../ui/format';
import { Pager, useCursorStack } from '../ui/pagination';
import { useSearchParam, useSearchText } from './searchParams';
import { useAdminAnnotators, useReinstateAnnotator, type AdminAnnotator } from './queries';
import './admin.css';

const LEVELS: Record<AdminAnnotator['level'], string> = { NOVICE: 'Novice', BRONZE: 'Bronze', SILVER: 'Silver', GOLD: 'Gold' };

export function AnnotatorsPage() {
  const [show, setShow] = useSearchParam('show', 'suspended');
  const suspendedOnly = show !== 'all';
  const search = useSearchText('q');
  const [reinstated, setReinstated] = useState<AdminAnnotator | null>(null);
  return (
    <>
      <PageHeader
        title="Annotators"
        description="People answering tasks in the developers' apps, known by each app's own id. An annotator is suspended when their golden accuracy falls under 50 % after at least 10 golden answers."
      />
      <div className="toolbar" role="search">
        <TextField
          label="Annotator id"
          type="search"
          name="q"
          value={search.text}
          onChange={(event) => search.change(event.currentTarget.value)}
          placeholder="Part of the app's id"
          limit={128}
          autoComplete="off"
        />
        <label className="checkbox">
          <input type="checkbox" checked={suspendedOnly} onChange={(event) => setShow(event.currentTarget.checked ? 'suspended' : 'all')} />
          Only suspended
        </label>
      </div>
      {reinstated ? (
        <Notice tone="success">
          {reinstated.annotatorId} ({reinstated.appName}) is reinstated and can answer tasks again.
        </Notice>
      ) : null}
      <AnnotatorResults
        key={`${suspendedOnly}:${search.q}`}
        suspendedOnly={suspendedOnly}
        q={search.q}
        onShowAll={() => setShow('all')}
        onReinstated={setReinstated}
      />
    </>
  );
}

interface ResultsProps {
  suspendedOnly: boolean;
  q: string;
  onShowAll: () => void;
  onReinstated: (annotator: AdminAnnotator) => void;
}

function AnnotatorResults({ suspendedOnly, q, onShowAll, onReinstated }: ResultsProps) {
  const pages = useCursorStack();
  const annotators = useAdminAnnotators(suspendedOnly, q, pages.cursor);
  const reinstate = useReinstateAnnotator();
  if (annotators.isPending) return <Loading label="Loading annotators…" />;
  if (annotators.isError) return <ErrorNote error={annotators.error} />;
  const rows = annotators.data.annotators;
  return (
    <Card>
      {rows.length === 0 && pages.page === 1 ? (
        <EmptyState
          title={
            suspendedOnly ? (q ? `No suspended annotator matches “${q}”` : 'No suspended annotators') : q ? `No annotator matches “${q}”` : 'No annotators yet'
          }
        >
          {suspendedOnly ? (
            <p>
              <button type="button" className="link-button" onClick={onShowAll}>
                Show every annotator
              </button>
            </p>
          ) : null}
        </EmptyState>
      ) : (
        <>
          <AnnotatorTable
            caption={suspendedOnly ? 'Suspended annotators' : 'Annotators'}
            annotators={rows}
            onReinstate={async (a) => {
              await reinstate.mutateAsync({ developerId: a.developerId, annotatorId: a.annotatorId });
              onReinstated(a);
            }}
          />
          <Pager
            page={pages.page}
            hasMore={annotators.data.hasMore}
            busy={annotators.isFetching}
            onPrevious={pages.previous}
            onNext={() => pages.next(annotators.data.nextCursor)}
          />
        </>
      )}
    </Card>
  );
}

function AnnotatorTable({
  caption,
  annotators,
  onReinstate,
}: {
  caption: string;
  annotators: AdminAnnotator[];
  onReinstate: (a: AdminAnnotator) => Promise<unknown>;
}) {
  const columns: Column<AdminAnnotator>[] = [
    { header: 'Annotator', cell: (a) => <span className="mono">{a.annotatorId}</span> },
    { header: 'App', cell: (a) => a.appName },
    { header: 'Level', wide: true, cell: (a) => LEVELS[a.level] ?? a.level },
    { header: 'Reliability', align: 'right', wide: true, cell: (a) => formatPercent(a.reliability) },
    {
      header: 'Golden',
      align: 'right',
      cell: (a) => (
        <span title={`${a.goldenAnswered} golden answers, ${formatPercent(a.goldenAccuracy)} right`}>
          <strong className={a.goldenAccuracy !== null && a.goldenAccuracy < 0.5 ? 'effect-debit' : undefined}>{formatPercent(a.goldenAccuracy)}</strong>
          <span className="muted small"> of {formatCount(a.goldenAnswered)}</span>
        </span>
      ),
    },
    {
      header: 'Responses',
      align: 'right',
      wide: true,
      cell: (a) => (
        <span title={`${a.totalResponses} answers, ${a.resolvedResponses} on tasks that reached a result`}>
          {formatCount(a.totalResponses)}
          <span className="muted small"> ({formatCount(a.resolvedResponses)} resolved)</span>
        </span>
      ),
    },
    {
      header: 'Status',
      cell: (a) => (
        <span className="nowrap">
          {a.suspended ? <span className="badge badge-danger">Suspended</span> : <span className="badge badge-success">Active</span>}
        </span>
      ),
    },
    {
      header: 'Actions',
      align: 'right',
      cell: (a) => (
        <div className="row-actions">
          {a.suspended ? (
            <ConfirmButton
              label="Reinstate"
              variant="primary"
              title={`Reinstate ${a.annotatorId}?`}
              message={
                <p>
                  {a.annotatorId} can take and answer {a.appName}’s tasks again at once. The {formatCount(a.goldenAnswered)} golden answers so far (
                  {formatPercent(a.goldenAccuracy)} right) no longer count toward a suspension: only golden answers given from now on do.
                </p>
              }
              confirmLabel="Reinstate annotator"
              onConfirm={() => onReinstate(a)}
            />
          ) : null}
        </div>
      ),
    },
  ];
  return <AdminTable caption={caption} columns={columns} rows={annotators} rowKey={(a) => `${a.developerId}/${a.annotatorId}`} />;
}
