// /audit-log (owners and admins: audit:read): every change made to the organisation, newest first, a page
// at a time ("Load more"), each with when (the reader's local time, the exact instant in its title), who
// (a member's e-mail, an API key's name and prefix, or Concord's operator), what (the action in words and
// its target, linked where the dashboard shows it), from which address, and the settings before and after
// it behind a toggle. Filters by action, target type, actor and days sit in the URL
// (?action=&targetType=&actor=&target=&from=&to=, auditFilters.ts) so a link reproduces the view. A 403
// (the role changed since the page opened) shows what a page the role may not open shows.
import { AUDIT_RETENTION_DAYS } from '@concord/contract';
import { useMemo, useState, type FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router';
import { permissionRefusal } from '../api/errors';
import { RoleRefusal } from '../organisations/Permitted';
import { useActingAs } from '../organisations/queries';
import { useProjectOptions } from '../tasks/queries';
import { shortId, TaskRef } from '../tasks/TaskRef';
import { BreakableAddress } from '../ui/BreakableAddress';
import { Button } from '../ui/Button';
import { EmptyState, ErrorNote, Loading } from '../ui/Feedback';
import { SelectField, TextField } from '../ui/Field';
import { Card, PageHeader } from '../ui/Page';
import { formatCount } from '../ui/format';
import { changeRows, changeSummary, type ChangeRow } from './auditChange';
import {
  actorChoice,
  actorOptions,
  changeAuditParams,
  CLEARED_AUDIT_FILTERS,
  dateRangeProblem,
  hasAuditFilter,
  OTHER_ACTOR,
  readAuditFilters,
  type AuditFilters,
  type AuditLogChanges,
} from './auditFilters';
import {
  ACTION_LABELS,
  ACTION_OPTIONS,
  describeActor,
  formatLocalDateTime,
  recordedNames,
  TARGET_TYPE_LABELS,
  TARGET_TYPE_OPTIONS,
  targetName,
  targetPath,
  type AuditEntry,
} from './auditWords';
import { useActorApiKeys, useActorMembers, useAuditLog } from './queries';
import './audit.css';

export function AuditLogPage() {
  const [params, setParams] = useSearchParams();
  const filters = readAuditFilters(params);
  const acting = useActingAs().data;
  const rangeProblem = dateRangeProblem(filters);
  const log = useAuditLog(filters, { enabled: rangeProblem === undefined });
  // A filter is another list: it replaces the address's entry, so Back leaves the page instead of undoing filters one by one.
  const change = (changes: AuditLogChanges) => setParams((previous) => changeAuditParams(previous, changes), { replace: true });

  const refusal = permissionRefusal(log.error);
  if (refusal) return <RoleRefusal refusal={refusal} />;

  const anyFilter = hasAuditFilter(filters);
  return (
    <>
      <PageHeader
        title="Audit log"
        description={
          <>
            Every change made to <strong>{acting?.companyName ?? 'the organisation'}</strong> by its members, its API keys or Concord’s operator: when, by whom,
            from which address, and the settings before and after. Newest first.
          </>
        }
      />
      <p className="audit-note" role="note">
        Entries are kept at least a year ({formatCount(AUDIT_RETENTION_DAYS)} days) and can never be changed or deleted, by anyone. Task content and secrets are
        never recorded.
      </p>
      <AuditFilterBar filters={filters} rangeProblem={rangeProblem} onChange={change} onClear={anyFilter ? () => change(CLEARED_AUDIT_FILTERS) : undefined} />
      <Card>
        <AuditList log={log} filters={filters} anyFilter={anyFilter} halted={rangeProblem !== undefined} you={acting?.email} onChange={change} />
      </Card>
    </>
  );
}

interface FilterBarProps {
  filters: AuditFilters;
  rangeProblem: string | undefined;
  onChange: (changes: AuditLogChanges) => void;
  onClear: (() => void) | undefined;
}

function AuditFilterBar({ filters, rangeProblem, onChange, onClear }: FilterBarProps) {
  const members = useActorMembers();
  const apiKeys = useActorApiKeys();
  const options = actorOptions(members.data ?? [], apiKeys.data ?? []);
  // "Another id…" chosen before one is typed: the field shows, the list stays as it is.
  const [typing, setTyping] = useState(false);
  const choice = typing ? OTHER_ACTOR : actorChoice(filters.actor, options);

  const applyActor = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const typed = String(new FormData(event.currentTarget).get('actorId') ?? '').trim();
    setTyping(false);
    onChange({ actor: typed || undefined });
  };

  return (
    <form className="toolbar audit-filters" role="search" aria-label="Filter the audit log" onSubmit={applyActor}>
      <SelectField
        label="Action"
        value={filters.action ?? ''}
        onChange={(event) => onChange({ action: event.target.value || undefined })}
        options={[{ value: '', label: 'All actions' }, ...ACTION_OPTIONS]}
      />
      <SelectField
        label="Target type"
        value={filters.targetType ?? ''}
        onChange={(event) => onChange({ targetType: event.target.value || undefined })}
        options={[{ value: '', label: 'All targets' }, ...TARGET_TYPE_OPTIONS]}
      />
      <SelectField
        label="Made by"
        value={choice}
        onChange={(event) => {
          const value = event.target.value;
          if (value === OTHER_ACTOR) {
            setTyping(true);
            return;
          }
          setTyping(false);
          onChange({ actor: value || undefined });
        }}
        options={options}
      />
      {choice === OTHER_ACTOR ? (
        <div className="audit-actor-id">
          <TextField
            // A new actor from the address (a row's "Only their changes") puts its id in the field.
            key={filters.actor ?? ''}
            label="Account or API key id"
            name="actorId"
            defaultValue={filters.actor ?? ''}
            autoComplete="off"
            spellCheck={false}
          />
          <Button type="submit">Apply</Button>
        </div>
      ) : null}
      <TextField
        label="First day"
        type="date"
        value={filters.from ?? ''}
        max={filters.to}
        onChange={(event) => onChange({ from: event.target.value || undefined })}
      />
      <TextField
        label="Last day"
        type="date"
        value={filters.to ?? ''}
        min={filters.from}
        onChange={(event) => onChange({ to: event.target.value || undefined })}
        error={rangeProblem}
      />
      {onClear ? (
        <Button
          variant="ghost"
          onClick={() => {
            setTyping(false);
            onClear();
          }}
        >
          Clear filters
        </Button>
      ) : null}
      {filters.target ? (
        <p className="audit-target-filter">
          Only the changes to {filters.targetType ? TARGET_TYPE_LABELS[filters.targetType].toLowerCase() : 'the target'}{' '}
          <code className="mono">{filters.target}</code>.{' '}
          <button type="button" className="link-button" onClick={() => onChange({ target: undefined })}>
            Show every target
          </button>
        </p>
      ) : null}
      {members.isError || apiKeys.isError ? (
        <p className="field-hint audit-actor-hint">The list of people and keys could not be loaded; an id typed in still filters.</p>
      ) : null}
    </form>
  );
}

interface ListProps {
  log: ReturnType<typeof useAuditLog>;
  filters: AuditFilters;
  anyFilter: boolean;
  /** The filters cannot be sent (the date range is reversed): the field says why, the list waits. */
  halted: boolean;
  you: string | undefined;
  onChange: (changes: AuditLogChanges) => void;
}

function AuditList({ log, filters, anyFilter, halted, you, onChange }: ListProps) {
  const projects = useProjectOptions().data;
  const entries = useMemo(() => log.data?.pages.flatMap((page) => page.entries) ?? [], [log.data]);
  // A target the entry does not name (an update records only what it changed): a project by its name
  // now, anything else by the name another loaded entry records of it.
  const names = useMemo(() => {
    const known = recordedNames(entries);
    for (const project of projects ?? []) known.set(project.id, project.name);
    return known;
  }, [entries, projects]);
  if (halted) return <EmptyState title="Choose a date range that ends on or after it starts" />;
  if (log.isPending) return <Loading label="Loading the audit log…" />;
  if (!log.data) return <ErrorNote error={log.error} />;
  if (entries.length === 0) {
    return anyFilter ? (
      <EmptyState title="No entries match these filters">
        <p>Change or clear the filters above.</p>
      </EmptyState>
    ) : (
      <EmptyState title="No changes recorded yet">
        <p>Each change a member or an API key makes (to projects, tasks, webhooks, keys, members, money) shows here, newest first.</p>
      </EmptyState>
    );
  }
  const more = log.hasNextPage;
  return (
    <>
      <div className="audit-head" aria-hidden="true">
        <span>When</span>
        <span>Who</span>
        <span>What</span>
        <span>From</span>
      </div>
      <ol className="audit-list" aria-label="Audit log entries">
        {entries.map((entry) => (
          <AuditEntryItem key={entry.id} entry={entry} names={names} filters={filters} you={you} onChange={onChange} />
        ))}
      </ol>
      {log.isFetchNextPageError ? <ErrorNote error={log.error} /> : null}
      <div className="audit-more">
        <p className="muted" aria-live="polite">
          {more
            ? `Showing the newest ${formatCount(entries.length)} ${anyFilter ? 'matching ' : ''}entries.`
            : `Showing all ${formatCount(entries.length)} ${anyFilter ? 'matching ' : ''}${entries.length === 1 ? 'entry' : 'entries'}.`}
        </p>
        {more ? (
          <Button onClick={() => void log.fetchNextPage()} busy={log.isFetchingNextPage}>
            Load more
          </Button>
        ) : null}
      </div>
    </>
  );
}

const sameAddress = (a: string, b: string) => a.trim().toLowerCase() === b.trim().toLowerCase();

interface EntryProps {
  entry: AuditEntry;
  /** Names of targets by id, for an entry that records none of its own. */
  names: ReadonlyMap<string, string>;
  filters: AuditFilters;
  you: string | undefined;
  onChange: (changes: AuditLogChanges) => void;
}

function AuditEntryItem({ entry, names, filters, you, onChange }: EntryProps) {
  const actor = describeActor(entry.actor);
  const rows = changeRows(entry.before, entry.after);
  const targetId = entry.target.id;
  return (
    <li className="audit-entry">
      <div className="audit-when">
        <time dateTime={entry.at} title={entry.at}>
          {formatLocalDateTime(entry.at)}
        </time>
      </div>
      <div className="audit-who">
        <span className="sr-only">By </span>
        <span className="audit-actor">{actor.kind === 'Member' ? <BreakableAddress address={actor.name} /> : actor.name}</span>
        {actor.kind === 'Member' && you && entry.actor.email && sameAddress(entry.actor.email, you) ? <span className="badge badge-success">you</span> : null}
        {actor.kind === 'API key' ? (
          <span className="audit-actor-meta">
            <span className="badge badge-info">API key</span> {actor.detail ? <code className="mono">{actor.detail}</code> : null}
          </span>
        ) : null}
        {actor.kind === 'Concord' ? (
          <span className="audit-actor-meta">
            <span className="badge badge-neutral" title="An administrator of the Concord service, not of your organisation">
              operator
            </span>
          </span>
        ) : null}
      </div>
      <div className="audit-what">
        <span className="audit-action">{ACTION_LABELS[entry.action]}</span>
        <span className="audit-target">
          <span className="audit-target-type">{TARGET_TYPE_LABELS[entry.target.type]}</span> <Target entry={entry} names={names} />
        </span>
      </div>
      <div className="audit-ip">
        <span className="audit-ip-label">From </span>
        <span className="mono">{entry.ip ?? <span title="Not recorded">—</span>}</span>
      </div>
      <details className="audit-change">
        <summary>
          <span className="audit-summary-label">Before → after</span> <span className="muted">({changeSummary(entry.before, entry.after)})</span>
        </summary>
        <div className="audit-change-body">
          {rows.length > 0 ? <ChangeList rows={rows} /> : <p className="muted">This change recorded no settings.</p>}
          <dl className="facts audit-ids">
            {actor.id ? (
              <>
                <dt>{actor.kind === 'API key' ? 'API key id' : 'Account id'}</dt>
                <dd>
                  <code className="mono">{actor.id}</code>
                  {filters.actor !== actor.id ? (
                    <>
                      {' '}
                      <button type="button" className="link-button" onClick={() => onChange({ actor: actor.id })}>
                        Only their changes
                      </button>
                    </>
                  ) : null}
                </dd>
              </>
            ) : null}
            {targetId ? (
              <>
                <dt>{TARGET_TYPE_LABELS[entry.target.type]} id</dt>
                <dd>
                  <code className="mono">{targetId}</code>
                  {filters.target !== targetId ? (
                    <>
                      {' '}
                      <button type="button" className="link-button" onClick={() => onChange({ target: targetId, targetType: entry.target.type })}>
                        Only changes to it
                      </button>
                    </>
                  ) : null}
                </dd>
              </>
            ) : null}
            <dt>Operation</dt>
            <dd>
              <code className="mono">{entry.action}</code>
            </dd>
            <dt>Entry</dt>
            <dd>
              <code className="mono">{entry.id}</code>
            </dd>
          </dl>
        </div>
      </details>
    </li>
  );
}

/** What the change was made to: its name (or, for a task, the start of its content), linked where the dashboard shows it. */
function Target({ entry, names }: { entry: AuditEntry; names: ReadonlyMap<string, string> }) {
  const id = entry.target.id;
  if (entry.target.type === 'task' && id && entry.after !== null) return <TaskRef taskId={id} length={40} />;
  const name = targetName(entry) ?? (id ? names.get(id) : undefined);
  const path = targetPath(entry);
  const label = name ?? (id ? shortId(id) : null);
  if (label === null) return null;
  const text = name ? <span className="audit-target-name">{entry.target.type === 'webhook' ? <BreakableAddress address={name} /> : name}</span> : label;
  const body = path ? (
    <Link to={path} title={id ?? undefined}>
      {text}
    </Link>
  ) : (
    <span title={id ?? undefined}>{text}</span>
  );
  return name ? body : <span className="mono">{body}</span>;
}

function ChangeList({ rows }: { rows: ChangeRow[] }) {
  return (
    <dl className="audit-diff">
      {rows.map((row) => (
        <div key={row.key} className={`audit-diff-row audit-diff-${row.kind}`}>
          <dt>
            <code className="mono">{row.key}</code>
          </dt>
          <dd>
            <ChangeValue row={row} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

function ChangeValue({ row }: { row: ChangeRow }) {
  switch (row.kind) {
    case 'set':
      return <span className="audit-new">{row.after}</span>;
    case 'removed':
      return <span className="audit-old-kept">{row.before}</span>;
    case 'same':
      return (
        <>
          <span>{row.after}</span> <span className="muted">(unchanged)</span>
        </>
      );
    default:
      return (
        <>
          <span className="audit-old">
            <span className="sr-only">was </span>
            {row.before}
          </span>{' '}
          <span className="audit-arrow" aria-hidden="true">
            →
          </span>
          <span className="sr-only">, now</span> <span className="audit-new">{row.after}</span>
        </>
      );
  }
}
