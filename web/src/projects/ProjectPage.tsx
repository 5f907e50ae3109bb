// One project, live: its task counts by status and spend, the labels its completed tasks received and
// how confident the consensus was (both polled with back-off while the page is open), the charts of the
// kinds it has completed tasks of (how many of each where it mixes them; each rating scale in its order;
// each multi-select option's rate; pairwise results in words, and its groups' rankings and win rates and
// the annotators' position bias); its open tasks at risk of missing their deadline (AtRiskTasks);
// rename/describe it or change its default answer kind, default deadline and quality settings (Details
// shows what its new tasks run with), see and set its budget cap (ProjectBudgetCap.tsx),
// delete it (only when it has no tasks), and jump to its tasks or an export of it.
import { useState, type FormEvent, type ReactNode } from 'react';
import { Link, useNavigate, useParams } from 'react-router';
import { ApiError } from '../api/errors';
import { Button } from '../ui/Button';
import { BarChart, HorizontalBars, StatCard } from '../ui/Charts';
import { ConfirmButton } from '../ui/Dialog';
import { EmptyState, ErrorNote, Loading, Notice } from '../ui/Feedback';
import { focusFirstInvalid, TextAreaField, TextField } from '../ui/Field';
import { Card, PageHeader } from '../ui/Page';
import { formatCents, formatCount, formatDateTime, formatPercent } from '../ui/format';
import { exportPath, taskListPath } from '../links';
import { PROJECT_DESCRIPTION_MAX, PROJECT_NAME_MAX } from '@concord/contract';
import { projectFormErrors, readProjectFields } from './projectForm';
import { LabelQuality } from './LabelQuality';
import { PairwiseReport } from './PairwiseReport';
import { hasPairwiseData } from './pairwiseReport';
import { DefaultKindFact, DefaultKindField } from './DefaultKind';
import { DefaultDeadlineFact, DefaultDeadlineField } from './DefaultDeadline';
import { AtRiskTasks } from '../tasks/AtRiskTasks';
import { KindMix, MultiOptions, RatingScales } from './KindCharts';
import { labelsNote, labelWords, mixesKinds } from './distributionByKind';
import { QualityFacts, QualityFields } from './QualitySettings';
import { ProjectBudgetCap } from './ProjectBudgetCap';
import {
  useDeleteProject,
  useProject,
  useProjectDistribution,
  useProjectPairwise,
  useProjectQuality,
  useUpdateProject,
  type ProjectDistribution,
  type ProjectWithStats,
} from './queries';
import { Permitted, RoleNote } from '../organisations/Permitted';
import './projects.css';

const timeOfDay = new Intl.DateTimeFormat('en-GB', { timeStyle: 'medium' });

export function ProjectPage() {
  const { projectId = '' } = useParams();
  const project = useProject(projectId);
  const notFound = project.error instanceof ApiError && project.error.code === 'PROJECT_NOT_FOUND';
  // Asked once the project is known to exist, so an unknown id costs one 404, not two.
  const distribution = useProjectDistribution(projectId, project.isSuccess && !notFound);
  const quality = useProjectQuality(projectId, project.isSuccess && !notFound);
  const pairwise = useProjectPairwise(projectId, project.isSuccess && !notFound);

  if (notFound) {
    return (
      <>
        <PageHeader title="Project not found" />
        <Card>
          <EmptyState title="That project does not exist (or belongs to another account).">
            <p>
              It may have been deleted. <Link to="/projects">Back to projects</Link>
            </p>
          </EmptyState>
        </Card>
      </>
    );
  }
  if (project.isPending) return <Loading label="Loading the project…" />;
  if (!project.data) {
    return (
      <>
        <PageHeader title="Project" />
        <ErrorNote error={project.error} />
      </>
    );
  }

  const data = project.data;
  return (
    <>
      <PageHeader
        title={data.name}
        description={data.description ?? undefined}
        actions={
          <div className="project-links">
            <Link className="btn btn-secondary" to={taskListPath({ projectId: data.id })}>
              View tasks
            </Link>
            <Link className="btn btn-primary" to={exportPath({ projectId: data.id })}>
              Export results
            </Link>
          </div>
        }
      />
      <p className="live-note" aria-live="off">
        <span className="live-dot" aria-hidden="true" /> Live · updated {timeOfDay.format(new Date(project.dataUpdatedAt))}
        {project.error ? ' · the last refresh failed, retrying' : null}
      </p>
      <ProjectStats project={data} />
      {distribution.data && mixesKinds(distribution.data.kinds) ? <KindMix kinds={distribution.data.kinds} /> : null}
      <AtRiskTasks projectId={data.id} pageSize={10} />
      <div className="grid-2 project-charts">
        <Card title="Labels">
          <DistributionLabels query={distribution} />
        </Card>
        <Card title="Confidence">
          <ConfidenceHistogram query={distribution} />
        </Card>
      </div>
      {distribution.data ? <KindCards data={distribution.data} /> : null}
      <Card title="Can these labels be trusted?">
        <LabelQuality query={quality} />
      </Card>
      {/* Only a project with pairwise tasks has a section for them (or a refusal to say why it is missing). */}
      {hasPairwiseData(pairwise.data) || (pairwise.error && !pairwise.data) ? (
        <Card title="Pairwise comparisons">{pairwise.data ? <PairwiseReport report={pairwise.data} /> : <ErrorNote error={pairwise.error} />}</Card>
      ) : null}
      <ProjectBudgetCap project={data} />
      <div className="grid-2">
        <Card title="Settings">
          <Permitted permission="tasks:write" fallback={<RoleNote permission="tasks:write" />}>
            <ProjectSettingsForm key={data.id} project={data} />
          </Permitted>
        </Card>
        <Card title="Details">
          <dl className="facts">
            <dt>Project id</dt>
            <dd className="mono">{data.id}</dd>
            <dt>Created</dt>
            <dd>{formatDateTime(data.createdAt)}</dd>
            <dt>Last changed</dt>
            <dd>{formatDateTime(data.updatedAt)}</dd>
            <DefaultKindFact kind={data.defaultAnswerKind} />
            <DefaultDeadlineFact hours={data.defaultDeadlineHours} />
            <QualityFacts project={data} />
          </dl>
          <Permitted permission="tasks:write">
            <DeleteProject project={data} />
          </Permitted>
        </Card>
      </div>
    </>
  );
}

function totalTasks(project: ProjectWithStats): number {
  const { PENDING, VALIDATING, COMPLETED, FAILED } = project.stats.tasks;
  return PENDING + VALIDATING + COMPLETED + FAILED;
}

function ProjectStats({ project }: { project: ProjectWithStats }) {
  const { tasks, spentCents } = project.stats;
  const total = totalTasks(project);
  const share = (n: number) => (total > 0 ? `${formatPercent(n / total)} of ${formatCount(total)}` : undefined);
  return (
    <section className="stats" aria-label="Tasks by status">
      <StatCard label="Pending" value={formatCount(tasks.PENDING)} hint={share(tasks.PENDING)} />
      <StatCard label="Validating" value={formatCount(tasks.VALIDATING)} hint={share(tasks.VALIDATING)} />
      <StatCard label="Completed" value={formatCount(tasks.COMPLETED)} hint={share(tasks.COMPLETED)} />
      <StatCard label="Failed" value={formatCount(tasks.FAILED)} hint={share(tasks.FAILED)} tone={tasks.FAILED > 0 ? 'warning' : undefined} />
      <StatCard label="Spent" value={formatCents(spentCents)} hint="Charged for completed tasks" />
    </section>
  );
}

type DistributionQuery = ReturnType<typeof useProjectDistribution>;

function DistributionState({ query, children }: { query: DistributionQuery; children: (data: ProjectDistribution) => ReactNode }) {
  if (query.isPending) return <Loading label="Loading the distribution…" />;
  if (!query.data) return <ErrorNote error={query.error} />;
  if (query.data.completed === 0) {
    return (
      <EmptyState title="No completed tasks yet">
        <p>The chart fills in as tasks reach consensus.</p>
      </EmptyState>
    );
  }
  return <>{children(query.data)}</>;
}

function DistributionLabels({ query }: { query: DistributionQuery }) {
  return (
    <DistributionState query={query}>
      {(data) =>
        data.labels.length === 0 ? (
          // Only written answers and their reviews completed: their results are texts, not labels.
          <EmptyState title="No labels to count">
            <p>The {formatCount(data.completed)} completed tasks are written answers and their reviews: read the chosen texts in the project's tasks.</p>
          </EmptyState>
        ) : (
          <>
            <HorizontalBars
              title="Results of the completed tasks"
              data={data.labels.map((l) => ({ label: labelWords(l.label, data.kinds), value: l.count }))}
              formatValue={(v) => `${formatCount(v)} · ${formatPercent(v / data.completed)}`}
            />
            <p className="chart-note">
              Results of the {formatCount(data.completed)} completed tasks, most frequent first. {labelsNote(data.kinds)}
            </p>
          </>
        )
      }
    </DistributionState>
  );
}

/** A chart per kind with completed tasks of its own: the rating scales, the multi-select options. */
function KindCards({ data }: { data: ProjectDistribution }) {
  const ratings = data.kinds.rating > 0 && data.ratingScales.length > 0;
  const multi = data.kinds.multi > 0 && data.multiOptions.length > 0;
  if (!ratings && !multi) return null;
  return (
    <div className="kind-charts">
      {ratings ? (
        <Card title={data.ratingScales.length > 1 ? 'Rating scales' : 'Rating scale'}>
          <RatingScales data={data} />
        </Card>
      ) : null}
      {multi ? (
        <Card title="Multi-select options">
          <MultiOptions data={data} />
        </Card>
      ) : null}
    </div>
  );
}

function ConfidenceHistogram({ query }: { query: DistributionQuery }) {
  return (
    <DistributionState query={query}>
      {(data) => (
        <>
          <BarChart
            title="Completed tasks by confidence"
            labelHeading="Confidence"
            data={data.confidence.map((bucket) => ({ label: `${bucket.from.toFixed(1)}–${bucket.to.toFixed(1)}`, values: [bucket.count] }))}
            edges={confidenceEdges(data.confidence)}
            showValues
            series={[{ name: 'Completed tasks', color: '#4338ca' }]}
            formatValue={formatCount}
          />
          <p className="chart-note">Completed tasks in ten buckets of the consensus confidence, from 0–0.1 to 0.9–1; the count of each is above its bar.</p>
        </>
      )}
    </DistributionState>
  );
}

/** The buckets' edges as axis labels: "0", "0.1", …, "1". */
function confidenceEdges(buckets: ProjectDistribution['confidence']): string[] {
  const edge = (n: number) => String(Number(n.toFixed(2)));
  return buckets.length === 0 ? [] : [...buckets.map((bucket) => edge(bucket.from)), edge(buckets[buckets.length - 1]?.to ?? 1)];
}

function ProjectSettingsForm({ project }: { project: ProjectWithStats }) {
  const update = useUpdateProject(project.id);
  const [localErrors, setLocalErrors] = useState<ReturnType<typeof readProjectFields>['errors']>({});
  const [saved, setSaved] = useState(false);
  const apiErrors = projectFormErrors(update.error);
  const errors = { ...apiErrors.fields, ...localErrors };

  const submit = async (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const formElement = event.currentTarget;
    const { values, errors: problems } = readProjectFields(new FormData(formElement));
    setLocalErrors(problems);
    setSaved(false);
    update.reset();
    if (Object.keys(problems).length > 0) {
      focusFirstInvalid(formElement);
      return;
    }
    try {
      await update.mutateAsync(values);
      setSaved(true);
    } catch {
      // Shown next to the fields from update.error.
    }
  };

  return (
    <form onSubmit={submit} noValidate aria-label="Project settings" onChange={() => setSaved(false)}>
      <TextField label="Name" name="name" defaultValue={project.name} required limit={PROJECT_NAME_MAX} autoComplete="off" error={errors.name} />
      <TextAreaField
        label="Description"
        name="description"
        defaultValue={project.description ?? ''}
        rows={3}
        limit={PROJECT_DESCRIPTION_MAX}
        hint="Leave empty to remove it."
        error={errors.description}
      />
      <DefaultKindField kind={project.defaultAnswerKind} error={errors.defaultAnswerKind} />
      <DefaultDeadlineField hours={project.defaultDeadlineHours} error={errors.defaultDeadlineHours} />
      <QualityFields project={project} errors={errors} />
      <ErrorNote error={apiErrors.general} />
      {saved ? <Notice tone="success">Changes saved.</Notice> : null}
      <Button type="submit" variant="primary" busy={update.isPending}>
        Save changes
      </Button>
    </form>
  );
}

function DeleteProject({ project }: { project: ProjectWithStats }) {
  const remove = useDeleteProject(project.id);
  const navigate = useNavigate();
  const total = totalTasks(project);
  const confirm = async () => {
    try {
      await remove.mutateAsync();
    } catch (error) {
      if (error instanceof ApiError && error.code === 'PROJECT_HAS_TASKS') {
        throw new Error(
          'A project that still has tasks cannot be deleted. Only PENDING tasks can be deleted or moved to another project (from the Tasks page); a project with answered tasks stays.',
        );
      }
      throw error;
    }
    navigate('/projects', { replace: true });
  };
  return (
    <div className="actions">
      <ConfirmButton
        label="Delete project"
        title="Delete this project?"
        confirmLabel="Confirm deletion"
        onConfirm={confirm}
        // The live stats already say what the service would answer (409 PROJECT_HAS_TASKS): no confirmation to fail.
        disabledReason={
          total > 0 ? (
            <>
              This project still has {formatCount(total)} task{total === 1 ? '' : 's'}, so it cannot be deleted. Only PENDING tasks can be deleted or moved to
              another project, from <Link to={taskListPath({ projectId: project.id })}>its tasks</Link>; a project with answered tasks stays.
            </>
          ) : undefined
        }
        message={<p>This project has no tasks. Deleting it cannot be undone.</p>}
      />
    </div>
  );
}
