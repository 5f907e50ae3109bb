// Golden tasks: what they are, the form that creates one (the known answer is chosen among the options
// typed, so it can never be outside them), and the list with how often each was served and answered
// and how often annotators got it right.
import { Link } from 'react-router';
import { useProjectChoices } from '../projects/queries';
import { typeLabel } from '../tasks/vocabulary';
import { excerpt, formatResult } from '../tasks/taskFormat';
import { ConfirmButton } from '../ui/Dialog';
import { EmptyState, ErrorNote, Loading } from '../ui/Feedback';
import { Card, PageHeader } from '../ui/Page';
import { Table, type Column } from '../ui/Table';
import { formatCount, formatDateTime, formatPercent } from '../ui/format';
import { Pager, useCursorStack } from '../ui/pagination';
import { NewGoldenTaskForm } from './NewGoldenTaskForm';
import { useDeleteGoldenTask, useGoldenTasks, type GoldenTask } from './queries';
import { Permitted, RoleNote, usePermission } from '../organisations/Permitted';
import './golden.css';

export function GoldenTasksPage() {
  const pages = useCursorStack();
  const golden = useGoldenTasks(pages.cursor);
  const projects = useProjectChoices();
  const projectName = (id: string | null) => (id ? (projects.data?.find((p) => p.id === id)?.name ?? 'Unknown project') : '—');

  return (
    <>
      <PageHeader
        title="Golden tasks"
        description="Golden tasks are tasks whose answer you already know, mixed blind into annotators' work to measure how reliable each annotator is; they are free, never billed and never exported."
      />
      <Card title="New golden task">
        <Permitted permission="tasks:write" fallback={<RoleNote permission="tasks:write" />}>
          <NewGoldenTaskForm projects={projects.data ?? []} onCreated={pages.reset} />
        </Permitted>
      </Card>
      <Card title="Your golden tasks">
        {golden.isPending ? <Loading label="Loading golden tasks…" /> : null}
        <ErrorNote error={golden.error} />
        {golden.data && golden.data.goldenTasks.length === 0 && pages.page === 1 ? (
          <EmptyState title="No golden tasks yet">
            <p>Add a few per task type and locale you use: annotators meet them among regular tasks.</p>
          </EmptyState>
        ) : null}
        {golden.data && golden.data.goldenTasks.length > 0 ? <GoldenTable rows={golden.data.goldenTasks} projectName={projectName} /> : null}
        <Pager
          page={pages.page}
          hasMore={golden.data?.hasMore ?? false}
          busy={golden.isFetching}
          onPrevious={pages.previous}
          onNext={() => pages.next(golden.data?.nextCursor)}
        />
      </Card>
    </>
  );
}

/** What a golden task's annotators answer: a rating's scale, a pair (with or without a tie), the options. */
function answersLine(task: GoldenTask): string {
  if (task.answerKind === 'rating') return `rating ${task.options.join(' < ')}`;
  if (task.answerKind === 'pairwise') return task.allowTie ? 'pairwise: A, B or a tie' : 'pairwise: A or B';
  return task.options.join(' / ');
}

function GoldenTable({ rows, projectName }: { rows: GoldenTask[]; projectName: (id: string | null) => string }) {
  const remove = useDeleteGoldenTask();
  const deletes = usePermission('tasks:write').allowed;
  const columns: Column<GoldenTask>[] = [
    {
      header: 'Task',
      cell: (task) => (
        <>
          <span className="truncate golden-content">{task.content}</span>
          <span className="golden-meta">
            {typeLabel(task.type)} · {answersLine(task)}
          </span>
          {task.answerKind === 'pairwise' && task.candidates ? (
            <span className="golden-meta golden-pair-line" title={`A: ${task.candidates.A}\n\nB: ${task.candidates.B}`}>
              A “{excerpt(task.candidates.A, 60)}” · B “{excerpt(task.candidates.B, 60)}”
            </span>
          ) : null}
          <span className="golden-meta narrow-only">
            Answer: <strong>{formatResult(task.goldenAnswer, task.answerKind)}</strong> · {task.locale} · served {formatCount(task.timesServed)} · answered{' '}
            {formatCount(task.timesAnswered)}
          </span>
        </>
      ),
    },
    {
      header: 'Known answer',
      // "B is better" stays on one line; a set or a long option wraps.
      cell: (task) => (
        <span className={`badge badge-success golden-answer${task.answerKind === 'pairwise' ? ' nowrap' : ''}`}>
          {formatResult(task.goldenAnswer, task.answerKind)}
        </span>
      ),
      wide: true,
    },
    { header: 'Locale', cell: (task) => task.locale, wide: true },
    { header: 'Project', cell: (task) => (task.projectId ? <Link to={`/projects/${task.projectId}`}>{projectName(task.projectId)}</Link> : '—'), wide: true },
    { header: 'Served', cell: (task) => formatCount(task.timesServed), align: 'right', wide: true },
    { header: 'Answered', cell: (task) => formatCount(task.timesAnswered), align: 'right', wide: true },
    { header: 'Correct', cell: (task) => formatPercent(task.correctRate), align: 'right' },
    { header: 'Created', cell: (task) => formatDateTime(task.createdAt), wide: true },
  ];
  const actions: Column<GoldenTask> = {
    header: 'Actions',
    cell: (task) => (
      <ConfirmButton
        label="Delete"
        title="Delete this golden task?"
        confirmLabel="Confirm deletion"
        onConfirm={() => remove.mutateAsync(task.id)}
        message={
          <p>
            “{task.content.length > 120 ? `${task.content.slice(0, 120)}…` : task.content}” will no longer be served. The answers already given still count in
            the annotators' reliability.
          </p>
        }
      />
    ),
  };
  return <Table caption="Your golden tasks" columns={deletes ? [...columns, actions] : columns} rows={rows} rowKey={(task) => task.id} />;
}
