import type { UnitOfWork } from '../../db/database.ts';
import type { AuditLogRepository } from '../audit/audit.repository.ts';
import type { KindFigures, TaskStatsRepository } from '../tasks/task-stats.repository.ts';
import type { StatusCounts, TasksRepository } from '../tasks/tasks.repository.ts';
import type { ProjectChanges, ProjectRecord, ProjectsRepository } from './projects.repository.ts';
import { ANSWER_KINDS, CONFIDENCE_BUCKETS, MAX_OPTIONS, type AnswerKind } from '@concord/contract';
import type { Actor, ProjectScope } from '../../lib/endpoint.ts';
import { pick, settingsChange } from '../audit/audit-change.ts';
import { pageRequest, toPage, type Page } from '../../lib/pagination.ts';
import { groupReports, readPairPrior, type GroupReport } from '../../consensus/kinds/pairwise-task.ts';
import { describeAnnotator } from '../../consensus/kinds/pairwise.ts';
import { round4 } from '../../consensus/stop-rule.ts';
import { MAX_PAIR_ANNOTATORS, MAX_PAIR_GROUPS, MAX_RATING_SCALES } from './projects.schemas.ts';

/** The repositories used here: a slice of the unit of work's registries (src/repositories.ts). */
type Repos = { auditLog: AuditLogRepository; projects: ProjectsRepository; taskStats: TaskStatsRepository; tasks: TasksRepository };
type Db = UnitOfWork<Repos>;

export interface ProjectPairwise {
  groups: GroupReport[];
  annotators: Array<{ answers: number; reliability: number; positionBias: number | null }>;
}

export interface ProjectWithStats extends ProjectRecord {
  stats: { tasks: StatusCounts; spentCents: number };
}

export interface ProjectDistribution {
  labels: Array<{ label: string; count: number }>;
  confidence: Array<{ from: number; to: number; count: number }>;
  completed: number;
  /** COMPLETED tasks per answer kind. */
  kinds: Record<AnswerKind, number>;
  /** Rating tasks per scale: the levels in order and how many tasks each level decided, the most tasks first. */
  ratingScales: Array<{ levels: string[]; counts: number[]; tasks: number }>;
  /** Multi-select tasks: per option, how many held it and the share of the tasks that offered it. */
  multiOptions: Array<{ option: string; count: number; rate: number }>;
}

export class ProjectsService {
  constructor(private readonly db: Db) {}

  create(actor: Actor, input: ProjectChanges & { name: string }): Promise<ProjectRecord> {
    return this.db.transaction(async (repos) => {
      const project = await repos.projects.create(actor.organisationId, input);
      await repos.auditLog.append(actor, { targetId: project.id, after: projectSettings(project) });
      return project;
    });
  }

  /** A project-scoped key's list holds its projects only. */
  async list(buyerId: string, limit: number, cursor?: string, scope: ProjectScope = null): Promise<Page<ProjectRecord, 'projects'>> {
    return toPage('projects', await this.db.repos.projects.list(buyerId, pageRequest(limit, cursor), scope), limit);
  }

  async get(buyerId: string, id: string): Promise<ProjectWithStats> {
    const project = await this.db.repos.projects.get(buyerId, id);
    const [tasks, spentCents] = await Promise.all([this.db.repos.tasks.countByStatus({ projectId: id }), this.db.repos.tasks.sumCompletedCost(id)]);
    return { ...project, stats: { tasks, spentCents } };
  }

  /**
   * Results (the 50 most frequent, most frequent first) and confidence in ten buckets of the project's
   * COMPLETED tasks. A project's tasks usually share one option set, so 50 (a task's most options) is
   * all of them; a project mixing option sets still gets a bounded answer.
   */
  async distribution(buyerId: string, id: string): Promise<ProjectDistribution> {
    await this.db.repos.projects.get(buyerId, id);
    const [{ labels, confidence, completed }, figures] = await Promise.all([
      this.db.repos.taskStats.projectDistribution(id),
      this.db.repos.taskStats.projectKindFigures(id),
    ]);
    // i / 10 rather than i * 0.1, so the bounds read 0.3, not 0.30000000000000004.
    const bounds = (i: number) => ({ from: i / CONFIDENCE_BUCKETS, to: (i + 1) / CONFIDENCE_BUCKETS });
    return {
      labels: labels.slice(0, MAX_OPTIONS),
      confidence: confidence.map((count, i) => ({ ...bounds(i), count })),
      completed,
      ...byKind(figures),
    };
  }

  /**
   * The project's pairwise work: each group's ranking and win-rate matrix (the groups with the most decided
   * pairs first), and its annotators' reliability and measured position bias in the project's pairwise scope
   * (the most answers first), without who they are: the buyer sees the crowd, not its members.
   */
  async pairwise(buyerId: string, id: string): Promise<ProjectPairwise> {
    await this.db.repos.projects.get(buyerId, id);
    const [pairs, counts] = await Promise.all([
      this.db.repos.taskStats.projectGroupPairs(id),
      this.db.repos.taskStats.projectPairCounts(id, buyerId, MAX_PAIR_ANNOTATORS),
    ]);
    const prior = readPairPrior(counts.priorShape) ?? undefined;
    const annotators = counts.tables.map((shown) => {
      const summary = describeAnnotator({ shown }, prior);
      return {
        answers: Math.round(summary.answers * 10) / 10,
        reliability: round4(summary.reliability),
        positionBias: summary.positionBias === null ? null : round4(summary.positionBias),
      };
    });
    return { groups: groupReports(pairs).slice(0, MAX_PAIR_GROUPS), annotators };
  }

  /** Changing the quality settings leaves the project's existing tasks as they are (contract §5). */
  update(actor: Actor, id: string, changes: ProjectChanges): Promise<ProjectRecord> {
    return this.db.transaction(async (repos) => {
      const before = await repos.projects.getLocked(actor.organisationId, id);
      const after = await repos.projects.update(actor.organisationId, id, changes);
      await repos.auditLog.append(actor, settingsChange(id, projectSettings(before), projectSettings(after)));
      return after;
    });
  }

  delete(actor: Actor, id: string): Promise<void> {
    return this.db.transaction(async (repos) => {
      const before = await repos.projects.getLocked(actor.organisationId, id);
      await repos.projects.delete(actor.organisationId, id);
      await repos.auditLog.append(actor, { targetId: id, before: projectSettings(before) });
    });
  }
}

/** What the audit log keeps of a project: its settings (a project holds no task content). */
const projectSettings = (project: ProjectRecord) =>
  pick(project, ['name', 'description', 'targetConfidence', 'maxResponses', 'defaultAnswerKind', 'defaultDeadlineHours']);

/** The charts by kind: completed tasks per kind, each rating scale's levels in order, each multi-select option's rate. */
export function byKind(figures: KindFigures): Pick<ProjectDistribution, 'kinds' | 'ratingScales' | 'multiOptions'> {
  const kinds = Object.fromEntries(ANSWER_KINDS.map((kind) => [kind, 0])) as Record<AnswerKind, number>;
  for (const { answerKind, count } of figures.kinds) if (answerKind in kinds) kinds[answerKind as AnswerKind] = count;
  const scales = new Map<string, { levels: string[]; counts: number[]; tasks: number }>();
  for (const { levels, result, count } of figures.ratings) {
    const key = JSON.stringify(levels);
    const scale = scales.get(key) ?? { levels, counts: levels.map(() => 0), tasks: 0 };
    const level = levels.indexOf(result);
    if (level >= 0) scale.counts[level] = (scale.counts[level] ?? 0) + count;
    scale.tasks += count;
    scales.set(key, scale);
  }
  const ratingScales = [...scales.values()].sort((a, b) => b.tasks - a.tasks).slice(0, MAX_RATING_SCALES);
  const multiOptions = figures.multiOptions
    .slice(0, MAX_OPTIONS)
    .map(({ option, chosen, tasks }) => ({ option, count: chosen, rate: tasks === 0 ? 0 : round4(chosen / tasks) }));
  return { kinds, ratingScales, multiOptions };
}
