// The label model's stored counts outside a decision (whose increments apply_settlement_effects adds): a golden
// answer's known truth enters its annotator's counts in the golden task's scope directly, through the
// same add_label_counts.
import type { RawExecutor } from '../../db/pg-executor.ts';
import { goldenIncrement, oneCoinGoldenIncrement } from '../../consensus/soft-counts.ts';
import { countsRow, sharesScopeOptions } from '../../consensus/task-decision.ts';
import { chosenIndexes, countsSideOf, multiCountsRow } from '../../consensus/kinds/multi-task.ts';
import { pairIncrement } from '../../consensus/kinds/pairwise-task.ts';
import type { PairChoice } from '../../consensus/kinds/pairwise.ts';

export class LabelCountsRepository {
  constructor(private readonly db: RawExecutor) {}

  /**
   * One whole count in cell (truth, answer) of the annotator's matrix in the golden task's scope (the
   * scope is created on first use); only the one-coin counts when the golden task's options are not
   * the scope's. A pair's count is in its 3×3 table as shown (`swapped`: the assignment showed B first).
   * Called after the annotator's row is locked (the order every writer of counts uses).
   */
  async addGoldenAnswer(goldenTaskId: string, annotatorId: string, answer: string, swapped: boolean): Promise<void> {
    // Two statements: a scope another transaction creates meanwhile is visible to the second one only.
    await this.db.$executeRaw`
      INSERT INTO label_scopes (key, buyer_id, project_id, options, answer_kind)
      SELECT task_scope_key(g.project_id, g.buyer_id, g.options, g.answer_kind), g.buyer_id, g.project_id,
             task_scope_options(g.options, g.answer_kind), g.answer_kind
      FROM golden_tasks g WHERE g.id = ${goldenTaskId}
      ON CONFLICT (key) DO NOTHING`;
    const rows = await this.db.$queryRaw<Array<{ key: string; scope_options: string[]; options: string[]; golden_answer: string; answer_kind: string }>>`
      SELECT s.key, s.options AS scope_options, g.options, g.golden_answer, g.answer_kind
      FROM golden_tasks g JOIN label_scopes s ON s.key = task_scope_key(g.project_id, g.buyer_id, g.options, g.answer_kind)
      WHERE g.id = ${goldenTaskId}`;
    const golden = rows[0];
    if (!golden) return;
    if (golden.answer_kind === 'multi') {
      // Four counts over the scope's options: one per option at (in the golden set, ticked).
      const truth = chosenIndexes(golden.golden_answer, golden.scope_options);
      const row = multiCountsRow(annotatorId, golden.scope_options.length, truth, chosenIndexes(answer, golden.scope_options));
      await this.db
        .$executeRaw`SELECT add_label_counts(${golden.key}, ${countsSideOf('multi', golden.scope_options.length)}::int, ${JSON.stringify([row])}::jsonb)`;
      return;
    }
    if (golden.answer_kind === 'pairwise') {
      const increment = pairIncrement(answer as PairChoice, swapped, golden.golden_answer as PairChoice);
      await this.db.$executeRaw`SELECT add_label_counts(${golden.key}, 3::int, ${JSON.stringify([countsRow(annotatorId, increment, 3)])}::jsonb)`;
      return;
    }
    const matrixForm = sharesScopeOptions(golden.options, golden.scope_options);
    const order = matrixForm ? golden.scope_options : golden.options;
    const truth = order.indexOf(golden.golden_answer);
    const given = order.indexOf(answer);
    const increment = matrixForm ? goldenIncrement(order.length, truth, given) : oneCoinGoldenIncrement(truth, given);
    const K = golden.scope_options.length;
    await this.db.$executeRaw`SELECT add_label_counts(${golden.key}, ${K}::int, ${JSON.stringify([countsRow(annotatorId, increment, K)])}::jsonb)`;
  }
}
