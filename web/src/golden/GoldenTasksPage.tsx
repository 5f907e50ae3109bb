// Golden tasks: what they are, the form that creates one (the known answer is chosen among the options
// typed, so it can never be outside them), and the list with how often each was served and answered
// and how often annotators got it right.
import { useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ApiError } from '../api/errors';
import { useProjectChoices } from '../projects/queries';
import { Button } from '../ui/Button';
import { ConfirmButton } from '../ui/Dialog';
import { EmptyState, ErrorNote, Loading, Notice } from '../ui/Feedback';
import { SelectField, TextAreaField } from '../ui/Field';
import { Card, PageHeader } from '../ui/Misc';
import { Table, type Column } from '../ui/Table';
import { formatCount, formatDateTime, formatPercent } from '../ui/format';
import { Pager, useCursorStack } from '../ui/pagination';
import { useCreateGoldenTask, useDeleteGoldenTask, useGoldenTasks, type GoldenTask, type GoldenTaskInput } from './queries';
import { LOCALES, TASK_TYPES, isLocale, isTaskType, typeLabel, type Locale, type TaskType } from './vocabulary';
import './golden.css';

const CONTENT_MAX = 100_000;
const OPTION_MAX = 500;
const OPTIONS_MAX = 50;

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
        <NewGoldenTaskForm projects={projects.data ?? []} onCreated={pages.reset} />
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
        <Pager page={pages.page} hasMore={golden.data?.hasMore ?? false} busy={golden.isFetching} onPrevious={pages.previous} onNext={() => pages.next(golden.data?.nextCursor)} />
      </Card>
    </>
  );
}

function GoldenTable({ rows, projectName }: { rows: GoldenTask[]; projectName: (id: string | null) => string }) {
  const remove = useDeleteGoldenTask();
  const columns: Column<GoldenTask>[] = [
    {
      header: 'Task',
      cell: (task) => (
        <>
          <span className="truncate golden-content">{task.content}</span>
          <span className="golden-meta">
            {typeLabel(task.type)} · {task.options.join(' / ')}
          </span>
          <span className="golden-meta narrow-only">
            Answer: <strong>{task.goldenAnswer}</strong> · {task.locale} · served {formatCount(task.timesServed)} · answered {formatCount(task.timesAnswered)}
          </span>
        </>
      ),
    },
    { header: 'Known answer', cell: (task) => <span className="badge badge-success golden-answer">{task.goldenAnswer}</span>, wide: true },
    { header: 'Locale', cell: (task) => task.locale, wide: true },
    { header: 'Project', cell: (task) => (task.projectId ? <Link to={`/projects/${task.projectId}`}>{projectName(task.projectId)}</Link> : '—'), wide: true },
    { header: 'Served', cell: (task) => formatCount(task.timesServed), align: 'right', wide: true },
    { header: 'Answered', cell: (task) => formatCount(task.timesAnswered), align: 'right', wide: true },
    { header: 'Correct', cell: (task) => formatPercent(task.correctRate), align: 'right' },
    { header: 'Created', cell: (task) => formatDateTime(task.createdAt), wide: true },
    {
      header: 'Actions',
      cell: (task) => (
        <ConfirmButton
          label="Delete"
          title="Delete this golden task?"
          confirmLabel="Confirm deletion"
          onConfirm={() => remove.mutateAsync(task.id)}
          message={
            <p>
              “{task.content.length > 120 ? `${task.content.slice(0, 120)}…` : task.content}” will no longer be served. The answers already given
              still count in the annotators' reliability.
            </p>
          }
        />
      ),
    },
  ];
  return <Table caption="Your golden tasks" columns={columns} rows={rows} rowKey={(task) => task.id} />;
}

/** The options typed, one per line: trimmed, blank lines dropped, duplicates kept once. */
function parseOptions(text: string): string[] {
  const seen = new Set<string>();
  for (const line of text.split(/\r?\n/)) {
    const option = line.trim();
    if (option) seen.add(option);
  }
  return [...seen];
}

type Errors = Partial<Record<'type' | 'content' | 'options' | 'goldenAnswer' | 'locale' | 'projectId', string>>;

/** The API's refusal as messages next to the fields it names (contract §0, §5). */
function apiFieldErrors(error: unknown): Errors {
  if (!(error instanceof ApiError)) return {};
  switch (error.code) {
    case 'MISSING_FIELDS': {
      const fields = Array.isArray(error.details?.fields) ? (error.details.fields as string[]) : [];
      return Object.fromEntries(fields.map((field) => [field, 'Required.']));
    }
    case 'INVALID_TYPE':
      return { type: 'Choose one of the task types.' };
    case 'OPTIONS_REQUIRED':
      return { options: 'Give at least two distinct options.' };
    case 'INVALID_PROJECT':
      return { projectId: 'Choose one of your own projects.' };
    case 'VALIDATION_ERROR':
      return error.fieldErrors();
    default:
      return {};
  }
}

function NewGoldenTaskForm({ projects, onCreated }: { projects: { id: string; name: string }[]; onCreated: () => void }) {
  const create = useCreateGoldenTask();
  const [type, setType] = useState<TaskType>('SENTIMENT_ANALYSIS');
  const [content, setContent] = useState('');
  const [optionsText, setOptionsText] = useState('');
  const [chosenAnswer, setChosenAnswer] = useState('');
  const [locale, setLocale] = useState<Locale>('en');
  const [projectId, setProjectId] = useState('');
  const [localErrors, setLocalErrors] = useState<Errors>({});
  const [created, setCreated] = useState<GoldenTask | null>(null);

  const options = parseOptions(optionsText);
  // The answer follows the options: one that is no longer typed is no longer chosen.
  const goldenAnswer = options.includes(chosenAnswer) ? chosenAnswer : '';
  const errors: Errors = { ...apiFieldErrors(create.error), ...localErrors };
  const example = TASK_TYPES.find((t) => t.value === type)?.example ?? '';

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const problems: Errors = {};
    if (!content.trim()) problems.content = 'Write the task annotators will see.';
    else if (content.length > CONTENT_MAX) problems.content = `At most ${formatCount(CONTENT_MAX)} characters.`;
    if (options.length < 2) problems.options = 'Give at least two distinct options, one per line.';
    else if (options.length > OPTIONS_MAX) problems.options = `At most ${OPTIONS_MAX} options.`;
    else if (options.some((option) => option.length > OPTION_MAX)) problems.options = `Each option has at most ${OPTION_MAX} characters.`;
    if (!goldenAnswer && options.length >= 2) problems.goldenAnswer = 'Choose which option is the right answer.';
    setLocalErrors(problems);
    setCreated(null);
    create.reset();
    if (Object.keys(problems).length > 0) {
      // Focus moves after React has marked the fields invalid.
      requestAnimationFrame(() => formElement.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    const body: GoldenTaskInput = { type, content: content.trim(), options, goldenAnswer, locale, projectId: projectId || null };
    try {
      const task = await create.mutateAsync(body);
      setCreated(task);
      setContent('');
      setChosenAnswer('');
      onCreated();
    } catch {
      // Shown next to the fields from create.error.
    }
  };

  const clearError = (field: keyof Errors) => {
    if (localErrors[field]) setLocalErrors(({ [field]: _dropped, ...rest }) => rest);
  };

  return (
    <form onSubmit={submit} noValidate aria-label="New golden task" className="golden-form">
      <div className="golden-grid">
        <div>
          <SelectField
            label="Type"
            name="type"
            value={type}
            onChange={(event) => isTaskType(event.target.value) && setType(event.target.value)}
            options={TASK_TYPES}
            error={errors.type}
          />
          <TextAreaField
            label="Content"
            name="content"
            rows={5}
            value={content}
            onChange={(event) => {
              setContent(event.target.value);
              clearError('content');
            }}
            hint="What annotators see: a text, a question, an image URL…"
            error={errors.content}
          />
        </div>
        <div>
          <TextAreaField
            label="Options"
            name="options"
            rows={5}
            value={optionsText}
            placeholder={example}
            onChange={(event) => {
              setOptionsText(event.target.value);
              clearError('options');
            }}
            hint={options.length > 0 ? `One per line: ${options.length} distinct option${options.length === 1 ? '' : 's'}.` : 'One per line, at least two.'}
            error={errors.options}
          />
          <SelectField
            label="Golden answer"
            name="goldenAnswer"
            value={goldenAnswer}
            onChange={(event) => {
              setChosenAnswer(event.target.value);
              clearError('goldenAnswer');
            }}
            options={[{ value: '', label: options.length > 0 ? 'Choose the right option…' : 'Type the options first' }, ...options.map((o) => ({ value: o, label: o }))]}
            hint="The known right answer, among the options above."
            error={errors.goldenAnswer}
          />
        </div>
      </div>
      <div className="golden-grid">
        <SelectField label="Locale" name="locale" value={locale} onChange={(event) => isLocale(event.target.value) && setLocale(event.target.value)} options={LOCALES} error={errors.locale} />
        <SelectField
          label="Project"
          name="projectId"
          value={projectId}
          onChange={(event) => setProjectId(event.target.value)}
          options={[{ value: '', label: 'No project' }, ...projects.map((p) => ({ value: p.id, label: p.name }))]}
          hint="Optional: the project it belongs to."
          error={errors.projectId}
        />
      </div>
      <ErrorNote error={create.error} />
      {created ? <Notice tone="success">Golden task created: annotators of {typeLabel(created.type).toLowerCase()} tasks in {created.locale} will start meeting it.</Notice> : null}
      <div className="golden-submit">
        <Button type="submit" variant="primary" busy={create.isPending}>
          Create golden task
        </Button>
      </div>
    </form>
  );
}
