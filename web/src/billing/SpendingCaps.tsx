// Billing's "Spending caps" (README, "Spending caps"; GET /billing/caps, money:read): this month's
// committed against the monthly cap, with its form; the capped projects, each with what it has committed
// of its cap, what a task past it meets and how many tasks it holds, changed in a dialog or removed; and a
// form that caps another project. Setting caps takes money:write: a role without it sees the figures, the
// reason once, and each row's buttons unavailable with the reason. Reached at /billing#spending-caps.
import { useEffect, useRef, useState } from 'react';
import { Link, useLocation } from 'react-router';
import { taskListPath } from '../links';
import { GatedButton, Permitted, RoleNote, usePermission } from '../organisations/Permitted';
import { useProjectChoices } from '../projects/queries';
import { Dialog } from '../ui/Dialog';
import { EmptyState, ErrorNote, Loading, Notice } from '../ui/Feedback';
import { SelectField, TextField } from '../ui/Field';
import { Card } from '../ui/Page';
import { formatCents } from '../ui/format';
import { CAP_ACTION_WORDS, heldWords, monthWords, SPENDING_CAPS_ANCHOR } from './caps';
import { MonthlyCapForm, ProjectCapForm, RemoveProjectCap } from './CapForms';
import { CapMeter } from './CapMeter';
import { useSpendingCaps, type MonthlyCap, type ProjectCap } from './queries';

export function SpendingCaps() {
  const caps = useSpendingCaps();
  const location = useLocation();
  const loaded = caps.data !== undefined;
  const scrolled = useRef(false);
  useEffect(() => {
    // A link to /billing#spending-caps lands here once the caps are drawn (the router does not scroll to an anchor).
    if (!loaded || scrolled.current || location.hash !== `#${SPENDING_CAPS_ANCHOR}`) return;
    scrolled.current = true;
    document.getElementById(SPENDING_CAPS_ANCHOR)?.scrollIntoView();
  }, [loaded, location.hash]);

  return (
    <Card title="Spending caps" id={SPENDING_CAPS_ANCHOR}>
      <p className="cap-intro">
        Caps limit what your tasks <strong>commit</strong>: the budgets reserved for open tasks plus what completed tasks were charged (a failed or deleted task
        commits nothing). A creation that would pass a cap is refused whole, or, in a project that holds, its tasks wait until the cap is raised.
      </p>
      <RoleNote permission="money:write" />
      {caps.data ? (
        <>
          <MonthlyCapSection monthly={caps.data.monthly} />
          <ProjectCapsSection projects={caps.data.projects} />
        </>
      ) : caps.error ? null : (
        <Loading label="Loading the spending caps…" />
      )}
      <ErrorNote error={caps.error} />
    </Card>
  );
}

function MonthlyCapSection({ monthly }: { monthly: MonthlyCap }) {
  const [message, setMessage] = useState<string | null>(null);
  const month = monthWords(monthly.month);
  return (
    <section className="cap-section" aria-labelledby="cap-monthly-title">
      <h3 id="cap-monthly-title">
        Monthly cap <span className="cap-month">{month} (UTC)</span>
      </h3>
      <div className="cap-monthly">
        <div className="cap-monthly-figures">
          {monthly.capCents === null ? (
            <p className="cap-none">
              <strong>No monthly cap.</strong> {formatCents(monthly.committedCents)} committed by the tasks created in {month}.
            </p>
          ) : (
            <CapMeter committedCents={monthly.committedCents} capCents={monthly.capCents} label="Monthly cap used" />
          )}
          <p className="field-hint">
            What the tasks created in a calendar month (UTC), or released in it from a hold, may commit, all projects together. Past it, new work is always
            refused (402); it starts again at the next month.
          </p>
        </div>
        <Permitted permission="money:write">
          <div className="cap-monthly-form">
            <MonthlyCapForm monthly={monthly} onSaved={setMessage} />
            {message ? <Notice tone="success">{message}</Notice> : null}
          </div>
        </Permitted>
      </div>
    </section>
  );
}

function ProjectCapsSection({ projects }: { projects: ProjectCap[] }) {
  const [message, setMessage] = useState<string | null>(null);
  const [editing, setEditing] = useState<ProjectCap | null>(null);
  const [added, setAdded] = useState(0);
  return (
    <section className="cap-section" aria-labelledby="cap-projects-title">
      <h3 id="cap-projects-title">Project budget caps</h3>
      <p className="field-hint cap-section-hint">
        What a project’s tasks may commit over its whole life. Past it, the project refuses new tasks or holds them.
      </p>
      {projects.length === 0 ? (
        <EmptyState title="No project has a budget cap">
          <p>Without one, a project’s tasks are limited only by the monthly cap and the available balance.</p>
        </EmptyState>
      ) : (
        <ProjectCapsTable projects={projects} onChange={setEditing} onSaved={setMessage} />
      )}
      {message ? <Notice tone="success">{message}</Notice> : null}
      <Permitted permission="money:write">
        <div className="cap-add">
          <h4 id="cap-add-title">Cap a project</h4>
          <AddProjectCap
            key={added}
            capped={projects}
            onSaved={(text) => {
              setMessage(text);
              setAdded((n) => n + 1);
            }}
          />
        </div>
      </Permitted>
      <Dialog open={editing !== null} title={editing ? `Budget cap of ${editing.name}` : 'Budget cap'} onClose={() => setEditing(null)}>
        {editing ? (
          <ProjectCapForm
            project={{ id: editing.projectId, name: editing.name }}
            current={editing}
            formLabel={`Change the budget cap of ${editing.name}`}
            submitLabel="Save cap"
            onCancel={() => setEditing(null)}
            onSaved={(text) => {
              setMessage(text);
              setEditing(null);
            }}
          />
        ) : null}
      </Dialog>
    </section>
  );
}

function ProjectCapsTable({
  projects,
  onChange,
  onSaved,
}: {
  projects: ProjectCap[];
  onChange: (project: ProjectCap) => void;
  onSaved: (message: string) => void;
}) {
  const readsTasks = usePermission('tasks:read').allowed;
  const changes = usePermission('money:write').allowed;
  return (
    <table className="cap-table">
      <caption className="sr-only">Projects with a budget cap, by name</caption>
      <thead>
        <tr>
          <th scope="col">Project</th>
          <th scope="col">Committed of the cap</th>
          <th scope="col">Past the cap</th>
          <th scope="col">Held</th>
          <th scope="col">
            <span className="sr-only">Actions</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {projects.map((project) => (
          <tr key={project.projectId} data-project-id={project.projectId}>
            <th scope="row" className="cap-project">
              {readsTasks ? <Link to={`/projects/${project.projectId}`}>{project.name}</Link> : project.name}
            </th>
            <td className="cap-committed">
              {project.capCents === null ? (
                'No cap'
              ) : (
                <CapMeter
                  compact
                  committedCents={project.committedCents}
                  capCents={project.capCents}
                  action={project.capAction}
                  label={`${project.name}: budget cap used`}
                />
              )}
            </td>
            <td className="cap-action-cell">
              <span
                className={`badge ${project.capAction === 'hold' ? 'badge-warning' : 'badge-neutral'}`}
                title={CAP_ACTION_WORDS[project.capAction].description}
              >
                {CAP_ACTION_WORDS[project.capAction].short}
              </span>
            </td>
            <td className="cap-held">
              {project.heldTasks > 0 && readsTasks ? (
                <Link to={taskListPath({ projectId: project.projectId, status: 'PENDING' })}>{heldWords(project.heldTasks)}</Link>
              ) : (
                <span className={project.heldTasks > 0 ? undefined : 'bl-muted'}>{heldWords(project.heldTasks)}</span>
              )}
            </td>
            <td className="cap-row-actions">
              <GatedButton permission="money:write" aria-label={`Change the budget cap of ${project.name}`} onClick={() => onChange(project)}>
                Change
              </GatedButton>
              {changes ? (
                <RemoveProjectCap
                  project={{ id: project.projectId, name: project.name }}
                  capAction={project.capAction}
                  heldTasks={project.heldTasks}
                  onSaved={onSaved}
                />
              ) : (
                <GatedButton permission="money:write" variant="danger" aria-label={`Remove cap of ${project.name}`}>
                  Remove cap
                </GatedButton>
              )}
            </td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/**
 * A cap for a project without one: chosen from the projects (a role that may read them), or by its id (a
 * billing member, whose role does not list projects).
 */
function AddProjectCap({ capped, onSaved }: { capped: ProjectCap[]; onSaved: (message: string) => void }) {
  const readsTasks = usePermission('tasks:read').allowed;
  const choices = useProjectChoices({ enabled: readsTasks });
  const [projectId, setProjectId] = useState('');
  const cappedIds = new Set(capped.map((project) => project.projectId));
  const uncapped = (choices.data ?? []).filter((project) => !cappedIds.has(project.id));

  if (readsTasks) {
    if (choices.isPending) return <Loading label="Loading your projects…" />;
    if (choices.error) return <ErrorNote error={choices.error} />;
    if (uncapped.length === 0) {
      return (
        <p className="field-hint">
          {(choices.data ?? []).length === 0 ? (
            <>
              No project yet: create one on the <Link to="/projects">Projects page</Link>, then cap it here.
            </>
          ) : (
            'Every project has a cap: change them in the list above.'
          )}
        </p>
      );
    }
  }
  const chosen = readsTasks
    ? uncapped.find((project) => project.id === projectId)
    : projectId.trim()
      ? { id: projectId.trim(), name: 'the project' }
      : undefined;

  return (
    <ProjectCapForm
      project={chosen ?? null}
      formLabel="Cap a project"
      submitLabel="Set project cap"
      onSaved={onSaved}
      picker={(error) =>
        readsTasks ? (
          <SelectField
            label="Project"
            name="projectId"
            value={projectId}
            onChange={(event) => setProjectId(event.target.value)}
            options={[{ value: '', label: 'Choose a project…' }, ...uncapped.map((project) => ({ value: project.id, label: project.name }))]}
            error={error}
          />
        ) : (
          <TextField
            label="Project id"
            name="projectId"
            autoComplete="off"
            spellCheck={false}
            value={projectId}
            onChange={(event) => setProjectId(event.target.value)}
            hint="Your role does not list projects: paste the project’s id (owners, admins and members see it on the project’s page)."
            error={error}
          />
        )
      }
    />
  );
}
