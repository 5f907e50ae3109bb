// An app that has learned which tasks are golden (docs/security.md) answers them right and everything
// else at random: through the SDK and the re-fit job, its annotators end with their regular work alone in
// their counts, weighed as random annotators are, while honest annotators keep their golden answers.
import { randomUUID } from 'node:crypto';
import request from 'supertest';
import { describe, expect, it } from 'vitest';
import { answerLogLikelihoods, type AnnotatorCounts, type ScopePrior } from '../../src/consensus/label-model.ts';
import { bearer, createFundedBuyer } from '../helpers/factories.ts';
import { useAnnotationWorld } from '../helpers/annotation-world.ts';
import { sdk } from '../helpers/sdk.ts';
import { prng } from '../../bench/quality/random.ts';

// GOLDEN_RATE 1: an annotator is served the buyer's golden tasks first, one per request, until it has answered each.
const world = useAnnotationWorld({ env: { GOLDEN_RATE: '1' } });
const unique = (label: string) => `${label}-${randomUUID().slice(0, 8)}`;
// 30 golden and 100 regular answers per gamer: its golden answers are right 30 times where its regular
// work (random on two options) predicts about 15, some five standard errors above, where the rule needs
// three; with 6 golden tasks the outcome hung on the draw.
const GOLDEN = 30;
const TASKS = 100;

describe('golden answers that disagree with regular work', () => {
  it('an annotator right on every golden task and random on the rest gains no weight from the golden ones', { timeout: 180_000 }, async () => {
    const random = prng(5);
    const buyer = await createFundedBuyer(world.ctx, world.adminToken, 100_000);
    const project = await request(world.ctx.app)
      .post('/api/v1/projects')
      .set(bearer(buyer.token))
      .send({ name: unique('Gaming') });
    expect(project.status).toBe(201);
    const projectId = project.body.id as string;
    const truthOf = new Map<string, string>();
    const goldenIds = new Set<string>();
    for (let g = 0; g < GOLDEN; g++) {
      const content = `Golden item ${g}: a bird?`;
      const goldenAnswer = g % 2 === 0 ? 'yes' : 'no';
      truthOf.set(content, goldenAnswer);
      const res = await request(world.ctx.app)
        .post('/api/v1/golden-tasks')
        .set(bearer(buyer.token))
        .send({ type: 'BINARY_CHOICE', content, options: ['yes', 'no'], goldenAnswer, projectId });
      expect(res.status).toBe(201);
      goldenIds.add(res.body.id);
    }
    const honest = Array.from({ length: 6 }, (_, i) => unique(`honest-${i}`));
    const gamers = Array.from({ length: 2 }, (_, i) => unique(`gamer-${i}`));
    const answerOf = (annotatorId: string, taskId: string, content: string): string => {
      const truth = truthOf.get(content) ?? 'yes';
      const wrong = truth === 'yes' ? 'no' : 'yes';
      if (gamers.includes(annotatorId)) return goldenIds.has(taskId) ? truth : random() < 0.5 ? 'yes' : 'no';
      return random() < 0.9 ? truth : wrong;
    };
    const client = sdk(world.ctx, world.developer.apiKey);
    /** Asks for work until a regular task comes, answering every golden task served on the way. */
    const answerNext = async (annotatorId: string): Promise<string | null> => {
      for (;;) {
        const next = await client.next(annotatorId);
        if (next.status === 204) return null;
        expect(next.status).toBe(200);
        const task = next.body.task as { id: string; content: string };
        expect((await client.complete(task.id, annotatorId, answerOf(annotatorId, task.id, task.content))).status).toBe(201);
        if (!goldenIds.has(task.id)) return task.id;
      }
    };
    const regularAnswers = new Map<string, number>();
    for (let t = 0; t < TASKS; t++) {
      const content = `Item ${t}: a bird?`;
      truthOf.set(content, random() < 0.5 ? 'yes' : 'no');
      const created = await request(world.ctx.app)
        .post('/api/v1/tasks/batch')
        .set(bearer(buyer.token))
        .send({ tasks: [{ type: 'BINARY_CHOICE', content, options: ['yes', 'no'], projectId }] });
      expect(created.status).toBe(201);
      // The gamers answer every task; the honest ones in a seeded order until it is decided.
      const order = [
        ...gamers,
        ...honest
          .map((id) => ({ id, key: random() }))
          .sort((a, b) => a.key - b.key)
          .map((a) => a.id),
      ];
      for (const annotatorId of order) {
        const answered = await answerNext(annotatorId);
        if (answered === null) break;
        expect(answered).toBe(created.body.tasks[0].taskId);
        regularAnswers.set(annotatorId, (regularAnswers.get(annotatorId) ?? 0) + 1);
      }
    }

    const scopeKey = `project:${projectId}`;
    const outcome = await world.ctx.services.quality.refitScope(scopeKey);
    expect(outcome).toMatchObject({ kind: 'refitted', goldenSetAside: gamers.length });
    await world.ctx.services.settlementEffects.settled();
    const scope = await world.ctx.prisma.labelScope.findUniqueOrThrow({ where: { key: scopeKey } });
    const prior: ScopePrior = { reliability: scope.priorReliability, shape: scope.priorShape.length > 0 ? scope.priorShape : null };
    const countsOf = async (externalId: string): Promise<AnnotatorCounts> => {
      const annotator = await world.ctx.prisma.annotator.findFirstOrThrow({ where: { developerId: world.developer.id, externalId } });
      const row = await world.ctx.prisma.annotatorScopeCounts.findUniqueOrThrow({ where: { scopeKey_annotatorId: { scopeKey, annotatorId: annotator.id } } });
      return { matrix: row.matrix, correct: row.correct, answered: row.answered };
    };
    // What a "yes" of theirs moves a task's log-odds by.
    const weight = (counts: AnnotatorCounts) => {
      const [no, yes] = answerLogLikelihoods(counts, 1, 2, prior);
      return (yes ?? 0) - (no ?? 0);
    };
    /** Its answers on regular tasks that were decided (open tasks' answers are counted when they are). */
    const decidedAnswers = async (externalId: string) =>
      world.ctx.prisma.taskResponse.count({
        where: { annotator: { developerId: world.developer.id, externalId }, task: { status: { in: ['COMPLETED', 'FAILED'] } } },
      });
    for (const gamer of gamers) {
      const counts = await countsOf(gamer);
      // Its counts hold its decided regular answers and none of its golden ones.
      expect(counts.answered).toBe(await decidedAnswers(gamer));
      expect(Math.abs(weight(counts))).toBeLessThan(0.5);
    }
    for (const annotatorId of honest) {
      const counts = await countsOf(annotatorId);
      // Its golden answers counted beside its decided regular ones.
      expect(counts.answered).toBe((await decidedAnswers(annotatorId)) + GOLDEN);
      expect(weight(counts)).toBeGreaterThan(1);
    }
  });
});
