// JSON batch: pasted `{"tasks": […]}` or a bare array, checked locally with JSON.parse first (a syntax
// error is shown with its line and column, and the cursor is put there), then sent to POST /tasks/batch,
// all or nothing. INVALID_TASK names the item: its number, its reason in words and its JSON are shown.
// The Idempotency-Key is the SHA-256 of the body sent, so the same tasks sent again within 24 hours
// (after a reload too) replay the first answer, and the page says that nothing new was created.
import { MAX_BATCH_TASKS } from '@concord/contract';
import { useId, useRef, useState, type FormEvent } from 'react';
import { Link } from 'react-router';
import { ApiError, describeCode, describeError } from '../api/errors';
import { taskErrorSentence } from '../api/fieldErrors';
import { issueSentence } from '../api/issueWords';
import { contentKey, importedAt, newIdempotencyKey, rememberImport } from '../api/idempotency';
import { useMeta } from '../api/meta';
import { Button } from '../ui/Button';
import { Notice } from '../ui/Feedback';
import { Card } from '../ui/Page';
import { formatCents, formatCount, formatDateTime } from '../ui/format';
import { locateJsonError } from './jsonPosition';
import { useCreateBatch, type BatchResult, type ImportOutcome } from './queries';
import { TaskRef } from './TaskRef';
import { floorCentsFor } from './taskForm';
import { CapRefusalHelp } from './Held';
import { heldCount, heldCreatedWords } from './held';

/**
 * An example batch. Budgets are given: the service's default budget (20 cents) is refused wherever the
 * task price is higher, so the example uses the lowest budget it accepts (the price) and half as much again.
 */
const exampleBatch = (floorCents: number) => `{
  "tasks": [
    { "type": "SENTIMENT_ANALYSIS", "content": "The delivery was fast and the box was intact.", "options": ["positive", "negative", "neutral"], "maxCents": ${floorCents} },
    { "type": "BINARY_CHOICE", "content": "Is this e-mail spam? \\"You won a cruise\\"", "options": ["yes", "no"], "locale": "en", "maxCents": ${Math.ceil(floorCents * 1.5)}, "validationsNeeded": 5 }
  ]
}`;

/** The items of a batch, or why the JSON is not a batch. */
function batchOf(value: unknown): { tasks: unknown[]; body: { tasks: unknown[] } } | { problem: string } {
  if (Array.isArray(value)) return { tasks: value, body: { tasks: value } };
  if (value && typeof value === 'object' && 'tasks' in value && Array.isArray((value as { tasks: unknown }).tasks)) {
    // Sent as written: the service refuses unknown keys next to "tasks" (VALIDATION_ERROR) in its own words.
    const body = value as { tasks: unknown[] };
    return { tasks: body.tasks, body };
  }
  return { problem: 'Paste an object with a "tasks" array, {"tasks": [ … ]}, or a bare array of tasks, [ … ].' };
}

export function JsonBatch() {
  const create = useCreateBatch();
  const floorCents = floorCentsFor(useMeta().data?.priceCents);
  const textareaId = useId();
  const errorId = useId();
  const hintId = useId();
  const textarea = useRef<HTMLTextAreaElement>(null);
  const [text, setText] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [sentTasks, setSentTasks] = useState<unknown[]>([]);
  const [sentBody, setSentBody] = useState<{ tasks: unknown[] } | null>(null);

  const edit = (value: string) => {
    setText(value);
    setProblem(null);
  };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    create.reset();
    setProblem(null);
    if (text.trim() === '') {
      setProblem('Paste the tasks as JSON first.');
      return;
    }
    let value: unknown;
    try {
      value = JSON.parse(text);
    } catch (caught) {
      const located = locateJsonError(text, caught);
      setProblem(`This is not valid JSON: line ${located.line}, column ${located.column} (character ${located.position + 1}): ${located.message}.`);
      const area = textarea.current;
      if (area) {
        area.focus();
        area.setSelectionRange(located.position, Math.min(text.length, located.position + 1));
      }
      return;
    }
    const batch = batchOf(value);
    if ('problem' in batch) {
      setProblem(batch.problem);
      return;
    }
    if (batch.tasks.length === 0 || batch.tasks.length > MAX_BATCH_TASKS) {
      setProblem(
        `A batch holds 1 to ${formatCount(MAX_BATCH_TASKS)} tasks; this one has ${formatCount(batch.tasks.length)}. ${batch.tasks.length > MAX_BATCH_TASKS ? 'Split it into several batches, or import a CSV file.' : ''}`.trim(),
      );
      return;
    }
    setSentTasks(batch.tasks);
    setSentBody(batch.body);
    // The key is the body as it travels (openapi-fetch sends JSON.stringify of it): the same tasks, the same key.
    await send(batch.body, await contentKey('POST /tasks/batch', JSON.stringify(batch.body)));
  };

  const send = async (body: { tasks: unknown[] }, idempotencyKey: string) => {
    try {
      const outcome = await create.mutateAsync({ body, idempotencyKey });
      if (!outcome.replayed) rememberImport(idempotencyKey);
    } catch {
      // Shown below through create.error.
    }
  };

  const describedBy = [hintId, problem ? errorId : ''].filter(Boolean).join(' ');
  return (
    <Card
      title="JSON batch"
      actions={
        <Button onClick={() => edit(exampleBatch(floorCents))} disabled={create.isPending}>
          Insert an example
        </Button>
      }
    >
      <form onSubmit={submit} noValidate className="import-json">
        <div className={`field${problem ? ' field-invalid' : ''}`}>
          <label htmlFor={textareaId}>Tasks as JSON</label>
          <textarea
            id={textareaId}
            ref={textarea}
            value={text}
            onChange={(event) => edit(event.target.value)}
            spellCheck={false}
            aria-describedby={describedBy}
            aria-invalid={problem ? true : undefined}
            rows={12}
          />
          <p id={hintId} className="field-hint">
            {'{"tasks": [ … ]}'} or a bare array; each task as for Create task: type, content, options, and optionally locale, maxCents (cents), projectId,
            validationsNeeded, answerKind (a pairwise task gives {'"candidates": {"A": …, "B": …}'}, allowTie and group instead of options; a written answer,
            "answerKind": "text", no options and optionally maxLength, at twice the price), deadline (ISO 8601 with a zone) and priority (−10 to 10). 1 to 1 000
            tasks, created all together or not at all. The same tasks sent again within 24 hours, even after a reload, create nothing new: the service answers
            with the first result.
          </p>
          {problem ? (
            <p id={errorId} className="field-error" role="alert">
              {problem}
            </p>
          ) : null}
        </div>
        {create.error ? <BatchError error={create.error} tasks={sentTasks} /> : null}
        {create.data ? (
          <BatchCreated outcome={create.data} busy={create.isPending} onCreateAgain={sentBody ? () => void send(sentBody, newIdempotencyKey()) : undefined} />
        ) : null}
        <div className="actions">
          <Button type="submit" variant="primary" busy={create.isPending}>
            Create tasks from JSON
          </Button>
        </div>
      </form>
    </Card>
  );
}

function BatchError({ error, tasks }: { error: unknown; tasks: unknown[] }) {
  if (error instanceof ApiError && error.code === 'INVALID_TASK' && typeof error.taskIndex === 'number') {
    const index = error.taskIndex;
    const itemCode = typeof error.details?.code === 'string' ? error.details.code : 'VALIDATION_ERROR';
    const issues = Array.isArray(error.details?.issues) ? (error.details.issues as { path?: unknown; message?: unknown }[]) : [];
    const item = tasks[index];
    return (
      <div className="error-note" role="alert" data-task-index={index}>
        <p className="import-batch-error-title">
          Task #{index + 1}: {describeCode(itemCode)} <code>{itemCode}</code>
        </p>
        {issues.length > 0 ? (
          <ul className="import-batch-error-detail">
            {issues.map((issue, i) => (
              <li key={i}>{issueSentence(String(issue.path ?? ''), String(issue.message ?? ''))}</li>
            ))}
          </ul>
        ) : (
          <p className="import-batch-error-detail">{taskErrorSentence(error.message, itemCode)}</p>
        )}
        <p className="import-batch-error-detail">Nothing was created. Task #{index + 1} as sent:</p>
        <pre className="import-item" aria-label={`Task #${index + 1} as sent`}>
          {item === undefined ? '(not found)' : JSON.stringify(item, null, 2)}
        </pre>
      </div>
    );
  }
  if (error instanceof ApiError && error.code === 'VALIDATION_ERROR') {
    const issues = error.issues();
    return (
      <div className="error-note" role="alert">
        <p className="import-batch-error-title">
          The batch is not shaped as the service expects.{' '}
          {issues.length > 0 ? issues.map((issue) => issueSentence(issue.path, issue.message, { tasks: 'the "tasks" array' })).join(' ') : `${error.message}.`}
        </p>
        <p className="import-batch-error-detail">Paste {'{"tasks": [ … ]}'} with no other field, or a bare array of tasks. Nothing was created.</p>
      </div>
    );
  }
  return (
    <div className="error-note" role="alert">
      <p className="import-batch-error-title">{describeError(error)}</p>
      {error instanceof ApiError && ['BATCH_TOO_LARGE', 'INVALID_JSON'].includes(error.code) ? (
        <p className="import-batch-error-detail">{error.message}</p>
      ) : null}
      {error instanceof ApiError && error.code === 'INSUFFICIENT_CREDITS' ? (
        <p className="import-batch-error-detail">
          Nothing was created. <Link to="/billing">Add credits</Link>, or lower the tasks' maxCents.
        </p>
      ) : null}
      {error instanceof ApiError && error.code === 'BUDGET_CAP_REACHED' ? <p className="import-batch-error-detail">Nothing was created.</p> : null}
      <CapRefusalHelp error={error} instead="send fewer tasks or lower their maxCents" />
    </div>
  );
}

interface BatchCreatedProps {
  outcome: ImportOutcome<BatchResult>;
  busy: boolean;
  /** Sends the same tasks with a new key: new tasks, on purpose. */
  onCreateAgain: (() => void) | undefined;
}

function BatchCreated({ outcome, busy, onCreateAgain }: BatchCreatedProps) {
  const { result } = outcome;
  const shown = result.tasks.slice(0, 5);
  const held = heldCreatedWords(heldCount(result.tasks), result.created);
  const firstAt = outcome.replayed ? importedAt(outcome.idempotencyKey) : undefined;
  return (
    <Notice tone={outcome.replayed ? 'info' : 'success'}>
      {outcome.replayed ? (
        <>
          This exact batch was already created {firstAt ? `at ${formatDateTime(firstAt)}` : 'within the last 24 hours'}; nothing new was created. Its{' '}
          {formatCount(result.created)} {result.created === 1 ? 'task is' : 'tasks are'} on the <Link to="/tasks">Tasks page</Link>.{' '}
          {onCreateAgain ? (
            <button type="button" className="link-button" onClick={onCreateAgain} disabled={busy}>
              Create {result.created === 1 ? 'it' : 'them'} again as new tasks
            </button>
          ) : null}
        </>
      ) : (
        <>
          Created {formatCount(result.created)} {result.created === 1 ? 'task' : 'tasks'}; total cost {formatCents(result.totalCostCents)}, charged as they
          complete. <Link to="/tasks">See them on the Tasks page</Link>.
        </>
      )}
      {held ? <p className="import-held">{held}</p> : null}
      <ul className="import-created-list">
        {shown.map((task) => (
          <li key={task.taskId}>
            <TaskRef taskId={task.taskId} />
          </li>
        ))}
        {result.tasks.length > shown.length ? <li>… and {formatCount(result.tasks.length - shown.length)} more</li> : null}
      </ul>
    </Notice>
  );
}
