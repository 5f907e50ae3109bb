// The figures of GET /projects/:id/quality and GET /quality/option-sets (src/consensus/quality-report.ts):
// one pass over a scope's tasks (a project's by its (project_id, status) index; a buyer's project-less
// tasks grouped by option set), its golden tasks' answer counters, and its stored calibration map.
import { readCalibration } from '../../consensus/calibration.ts';
import type { ScopeFigures } from '../../consensus/quality-report.ts';
import { MAX_OPTION_SETS } from './label-quality.schemas.ts';
import type { RawExecutor } from '../../db/pg-executor.ts';
import { Prisma } from '../../generated/prisma/client.ts';

type TaskFigures = Pick<
  ScopeFigures,
  'completed' | 'failed' | 'open' | 'rejected' | 'delivered' | 'confidenceSum' | 'confidenceVariance' | 'answersSum' | 'costSum'
>;
type GoldenFigures = Pick<ScopeFigures, 'goldenTasks' | 'goldenAnswers' | 'goldenCorrect'>;
type ScopeMap = Pick<ScopeFigures, 'calibration' | 'refittedAt'>;
type StoredMap = { calibration: unknown; refittedAt: Date | null };

const TASK_FIGURES = Prisma.sql`
  count(*) FILTER (WHERE status = 'COMPLETED')::int AS completed,
  count(*) FILTER (WHERE status = 'FAILED')::int AS failed,
  count(*) FILTER (WHERE status IN ('PENDING', 'VALIDATING'))::int AS open,
  count(*) FILTER (WHERE revision = 2)::int AS rejected,
  count(*) FILTER (WHERE status = 'COMPLETED' OR revision = 2)::int AS delivered,
  coalesce(sum(confidence) FILTER (WHERE status = 'COMPLETED'), 0)::float8 AS "confidenceSum",
  coalesce(sum(confidence * (1 - confidence)) FILTER (WHERE status = 'COMPLETED'), 0)::float8 AS "confidenceVariance",
  coalesce(sum(total_responses) FILTER (WHERE status = 'COMPLETED'), 0)::float8 AS "answersSum",
  coalesce(sum(cost_cents) FILTER (WHERE status = 'COMPLETED'), 0)::float8 AS "costSum"`;

const GOLDEN_FIGURES = Prisma.sql`
  count(*)::int AS "goldenTasks",
  coalesce(sum(times_answered), 0)::int AS "goldenAnswers",
  coalesce(sum(times_correct), 0)::int AS "goldenCorrect"`;

const NO_GOLDEN: GoldenFigures = { goldenTasks: 0, goldenAnswers: 0, goldenCorrect: 0 };
const NO_MAP: ScopeMap = { calibration: null, refittedAt: null };
/** A stored map read as the answer path reads it (a damaged one is the identity). */
const scopeMap = (row: StoredMap | undefined): ScopeMap =>
  row ? { calibration: row.calibration === null ? null : readCalibration(row.calibration), refittedAt: row.refittedAt } : NO_MAP;
const EMPTY_TASKS: TaskFigures = {
  completed: 0,
  failed: 0,
  open: 0,
  rejected: 0,
  delivered: 0,
  confidenceSum: 0,
  confidenceVariance: 0,
  answersSum: 0,
  costSum: 0,
};

export class LabelQualityRepository {
  constructor(private readonly db: RawExecutor) {}

  /** A project's figures (the project's existence and owner are checked by the caller). */
  async projectFigures(projectId: string): Promise<ScopeFigures> {
    // Three independent reads: sent together, not one after another.
    const [[tasks], [golden], [map]] = await Promise.all([
      this.db.$queryRaw<TaskFigures[]>`SELECT ${TASK_FIGURES} FROM tasks WHERE project_id = ${projectId}`,
      this.db.$queryRaw<GoldenFigures[]>`SELECT ${GOLDEN_FIGURES} FROM golden_tasks WHERE project_id = ${projectId}`,
      this.db.$queryRaw<StoredMap[]>`
        SELECT calibration, refitted_at AS "refittedAt" FROM label_scopes WHERE key = label_scope_key(${projectId}, NULL, NULL)`,
    ]);
    return { ...EMPTY_TASKS, ...tasks, ...(golden ?? NO_GOLDEN), ...scopeMap(map) };
  }

  /** The figures of each option set of a buyer's tasks without a project (its scopes), the largest first. */
  async optionSetFigures(buyerId: string): Promise<Array<{ options: string[]; figures: ScopeFigures }>> {
    const [tasks, golden, maps] = await Promise.all([
      this.db.$queryRaw<Array<TaskFigures & { options: string[] }>>`
        SELECT label_scope_options(options) AS options, ${TASK_FIGURES}
        FROM tasks WHERE buyer_id = ${buyerId} AND project_id IS NULL
        GROUP BY 1 ORDER BY count(*) DESC, 1 LIMIT ${MAX_OPTION_SETS}`,
      this.db.$queryRaw<Array<GoldenFigures & { options: string[] }>>`
        SELECT label_scope_options(options) AS options, ${GOLDEN_FIGURES}
        FROM golden_tasks WHERE buyer_id = ${buyerId} AND project_id IS NULL GROUP BY 1`,
      this.db.$queryRaw<Array<StoredMap & { options: string[] }>>`
        SELECT options, calibration, refitted_at AS "refittedAt" FROM label_scopes WHERE buyer_id = ${buyerId} AND project_id IS NULL`,
    ]);
    const key = (options: string[]) => JSON.stringify(options);
    const goldenBy = new Map(golden.map(({ options, ...figures }) => [key(options), figures]));
    const mapBy = new Map(maps.map(({ options, ...map }) => [key(options), scopeMap(map)]));
    return tasks.map(({ options, ...figures }) => ({
      options,
      figures: { ...figures, ...(goldenBy.get(key(options)) ?? NO_GOLDEN), ...(mapBy.get(key(options)) ?? NO_MAP) },
    }));
  }
}
