// Tasks: the buyer's tasks, 25 at a time through the API's cursor (a million tasks load one page), with
// filters, the page (?cursor=&page=, the cursors before it in the history entry, so Back and a reload
// keep the page) and the open task kept in the URL (the parameters of links.ts:
// ?status=&type=&answerKind=&projectId=&locale=&task=, read and written by taskFilters.ts) so a link
// reproduces the view, live counts by status that filter when clicked, the open tasks at risk of missing
// their deadline (of the filtered project, when one is; AtRiskTasks), a drawer with the task's details,
// and a form to create one. Everything polls with back-off, so a task turning COMPLETED shows by itself.
import { useMemo, useState } from 'react';
import { Link, useLocation, useSearchParams } from 'react-router';
import { ApiError } from '../api/errors';
import { GatedButton, GatedLink, Permitted } from '../organisations/Permitted';
import { Button } from '../ui/Button';
import { EmptyState, ErrorNote, Loading, Notice } from '../ui/Feedback';
import { SelectField } from '../ui/Field';
import { Card, PageHeader } from '../ui/Page';
import { TASK_LIST_PARAMS } from '../links';
import { Pager, useUrlCursor } from '../ui/pagination';
import { formatCount } from '../ui/format';
import { CreateTaskDialog } from './CreateTaskDialog';
import { TaskDrawer } from './TaskDrawer';
import { TaskTable } from './TaskTable';
import { AtRiskTasks } from './AtRiskTasks';
import { PAGE_SIZE, useProjectOptions, useTaskCounts, useTasks, type CreateTaskResult, type ProjectOption } from './queries';
import { changeTaskListParams, CLEARED_FILTERS, filtersKey, hasFilter, readTaskFilters, type TaskFilters, type TaskListChanges } from './taskFilters';
import { ANSWER_KIND_NAMES, LOCALES, STATUSES, TASK_TYPES, type TaskStatus } from './vocabulary';
import { formatDuration } from './taskFormat';
import { heldCreatedWords } from './held';
import './tasks.css';

export function TasksPage() {
  const [params, setParams] = useSearchParams();
  const location = useLocation();
  const filters = readTaskFilters(params);
  const openTaskId = params.get(TASK_LIST_PARAMS.task);
  const projects = useProjectOptions();
  const projectList = useMemo(() => projects.data ?? [], [projects.data]);
  const projectNames = useMemo(() => new Map(projectList.map((p) => [p.id, p.name])), [projectList]);
  const [creating, setCreating] = useState(false);
  const [created, setCreated] = useState<CreateTaskResult | null>(null);

  // Another filter is another list, which starts at its first page; the page's earlier cursors ride in
  // the history entry, so opening or closing a task keeps them.
  const change = (changes: TaskListChanges) => setParams((previous) => changeTaskListParams(previous, changes), { state: location.state });

  const anyFilter = hasFilter(filters);

  return (
    <>
      <PageHeader
        title="Tasks"
        description="Every task you created, newest first. Counts, the list and an open task update by themselves while annotators work."
        actions={
          <>
            <GatedLink permission="tasks:write" className="btn btn-secondary" to="/import">
              Import CSV or JSON
            </GatedLink>
            <GatedButton permission="tasks:write" variant="primary" onClick={() => setCreating(true)}>
              Create task
            </GatedButton>
          </>
        }
      />
      {created?.held ? (
        <Notice>
          Task created. {heldCreatedWords(1, 1)}{' '}
          <button type="button" className="link-button" onClick={() => change({ task: created.taskId })}>
            View the new task
          </button>
        </Notice>
      ) : created ? (
        <Notice tone="success">
          Task created and its budget reserved. Estimated time to a result: about {formatDuration(created.estimatedCompletionMs)}.{' '}
          <button type="button" className="link-button" onClick={() => change({ task: created.taskId })}>
            View the new task
          </button>
        </Notice>
      ) : null}
      <AtRiskTasks
        // Another project filtered is another list, from its first rows.
        key={filters.projectId ?? 'all'}
        projectId={filters.projectId}
        pageSize={10}
        onOpen={(task) => change({ task })}
        openTaskId={openTaskId}
        projectNames={projectNames}
        compactEmpty
      />
      <StatusCounts filters={filters} active={filters.status} onSelect={(status) => change({ status })} />
      <TaskFilterBar filters={filters} projects={projectList} onChange={change} onClear={anyFilter ? () => change(CLEARED_FILTERS) : undefined} />
      {projects.isError ? <ErrorNote error={projects.error} /> : null}
      <Card>
        <TaskList
          key={filtersKey(filters)}
          filters={filters}
          anyFilter={anyFilter}
          projectNames={projectNames}
          openTaskId={openTaskId}
          onOpen={(task) => change({ task })}
          onCreate={() => setCreating(true)}
        />
      </Card>
      <TaskDrawer
        taskId={openTaskId}
        projects={projectList}
        onClose={() => {
          if (params.has(TASK_LIST_PARAMS.task)) change({ task: undefined });
        }}
      />
      <CreateTaskDialog
        open={creating}
        projects={projectList}
        defaultProjectId={filters.projectId}
        onClose={() => setCreating(false)}
        onCreated={(result) => {
          setCreating(false);
          setCreated(result);
        }}
      />
    </>
  );
}

function StatusCounts({
  filters,
  active,
  onSelect,
}: {
  filters: TaskFilters;
  active: TaskStatus | undefined;
  onSelect: (status: TaskStatus | undefined) => void;
}) {
  const counts = useTaskCounts(filters);
  const value = (n: number | undefined) => (n === undefined ? '…' : formatCount(n));
  return (
    <>
      <div className="task-counts" role="group" aria-label="Tasks by status" aria-busy={counts.isPending || undefined}>
        <button type="button" className="task-count" aria-pressed={!active} onClick={() => onSelect(undefined)}>
          <span className="task-count-label">All</span> <span className="task-count-value">{value(counts.data?.total)}</span>
        </button>
        {STATUSES.map((status) => (
          <button
            key={status.value}
            type="button"
            className={`task-count task-count-${status.value.toLowerCase()}`}
            aria-pressed={active === status.value}
            onClick={() => onSelect(active === status.value ? undefined : status.value)}
          >
            <span className="task-count-label">{status.label}</span> <span className="task-count-value">{value(counts.data?.counts[status.value])}</span>
          </button>
        ))}
      </div>
      {counts.isError ? <ErrorNote error={counts.error} /> : null}
    </>
  );
}

interface TaskFilterBarProps {
  filters: TaskFilters;
  projects: ProjectOption[];
  onChange: (changes: TaskListChanges) => void;
  onClear: (() => void) | undefined;
}

function TaskFilterBar({ filters, projects, onChange, onClear }: TaskFilterBarProps) {
  const unknownProject = filters.projectId && !projects.some((p) => p.id === filters.projectId);
  return (
    <form className="toolbar task-filters" role="search" aria-label="Filter tasks" onSubmit={(event) => event.preventDefault()}>
      <SelectField
        label="Filter by status"
        value={filters.status ?? ''}
        onChange={(event) => onChange({ status: event.target.value || undefined })}
        options={[{ value: '', label: 'All statuses' }, ...STATUSES]}
      />
      <SelectField
        label="Filter by type"
        value={filters.type ?? ''}
        onChange={(event) => onChange({ type: event.target.value || undefined })}
        options={[{ value: '', label: 'All types' }, ...TASK_TYPES]}
      />
      <SelectField
        label="Filter by answer"
        value={filters.answerKind ?? ''}
        onChange={(event) => onChange({ answerKind: event.target.value || undefined })}
        options={[{ value: '', label: 'All answer kinds' }, ...ANSWER_KIND_NAMES]}
      />
      <SelectField
        label="Filter by project"
        value={filters.projectId ?? ''}
        onChange={(event) => onChange({ projectId: event.target.value || undefined })}
        options={[
          { value: '', label: 'All projects' },
          ...(unknownProject && filters.projectId ? [{ value: filters.projectId, label: 'Unknown project' }] : []),
          ...projects.map((p) => ({ value: p.id, label: p.name })),
        ]}
      />
      <SelectField
        label="Filter by locale"
        value={filters.locale ?? ''}
        onChange={(event) => onChange({ locale: event.target.value || undefined })}
        options={[{ value: '', label: 'All locales' }, ...LOCALES]}
      />
      {onClear ? (
        <Button variant="ghost" onClick={onClear}>
          Clear filters
        </Button>
      ) : null}
    </form>
  );
}

interface TaskListProps {
  filters: TaskFilters;
  anyFilter: boolean;
  projectNames: Map<string, string>;
  openTaskId: string | null;
  onOpen: (id: string) => void;
  onCreate: () => void;
}

/** One page of the list; its place is the URL's (useUrlCursor), its number of pages the live counts'. */
function TaskList({ filters, anyFilter, projectNames, openTaskId, onOpen, onCreate }: TaskListProps) {
  const pages = useUrlCursor();
  const tasks = useTasks(filters, pages.cursor);
  const counts = useTaskCounts(filters);
  const matching = counts.data ? (filters.status ? counts.data.counts[filters.status] : counts.data.total) : undefined;
  const pageCount = matching === undefined ? undefined : Math.max(1, Math.ceil(matching / PAGE_SIZE));
  if (tasks.isPending) return <Loading label="Loading tasks…" />;
  if (tasks.isError && !tasks.data) {
    const staleCursor = tasks.error instanceof ApiError && tasks.error.code === 'INVALID_CURSOR';
    return (
      <>
        <ErrorNote error={tasks.error} />
        {staleCursor ? <Button onClick={pages.first}>Back to the first page</Button> : null}
      </>
    );
  }
  const data = tasks.data;
  if (!data) return null;
  if (data.tasks.length === 0 && pages.page === 1) {
    return anyFilter ? (
      <EmptyState title="No task matches these filters">
        <p>Change or clear the filters above.</p>
      </EmptyState>
    ) : (
      <EmptyState title="No tasks yet">
        <Permitted permission="tasks:write" fallback={<p>The tasks your organisation creates or imports appear here.</p>}>
          <p>Create one, or import many from a CSV file or a JSON batch.</p>
          <div className="task-empty-actions">
            <Button variant="primary" onClick={onCreate}>
              Create your first task
            </Button>
            <Link className="btn btn-secondary" to="/import">
              Import tasks
            </Link>
          </div>
        </Permitted>
      </EmptyState>
    );
  }
  return (
    <>
      {tasks.isError ? <ErrorNote error={tasks.error} /> : null}
      <TaskTable tasks={data.tasks} projectNames={projectNames} openTaskId={openTaskId} onOpen={onOpen} />
      <Pager
        page={pages.page}
        pages={pageCount}
        hasMore={data.hasMore}
        busy={tasks.isPlaceholderData}
        onPrevious={pages.previous}
        onFirst={pages.first}
        onNext={() => pages.next(data.nextCursor)}
      />
    </>
  );
}
