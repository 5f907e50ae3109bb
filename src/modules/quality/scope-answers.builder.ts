// Turns a scope's snapshot, as the read streams it — the stored counts rows, then one item with all its
// answers at a time — into typed arrays for the worker thread: the re-fit's input (src/consensus/refit.ts
// ScopeAnswers) and the snapshot's counts. Items are numbered in arrival order, so the answers come
// sorted by item and the fit needs no copy in item order; annotator ids become indices through a Map
// (the counts rows' annotators first). The arrays grow by doubling and are handed over as views on their
// buffers, never copied to size: at 10 M answers a copy would add the answer arrays' 120 MB again at the
// moment memory peaks. The read sizes them from the task rows first, so in practice they never grow.
import type { ScopeAnswers } from '../../consensus/refit.ts';

type TypedArray = Int32Array | Uint16Array | Uint8Array | Float64Array;
type TypedArrayOf<T extends TypedArray> = { new (length: number): T };

/** An append-only typed array that doubles its buffer when full. */
class GrowableArray<T extends TypedArray> {
  private buffer: T;
  length = 0;

  constructor(
    private readonly Type: TypedArrayOf<T>,
    initialCapacity: number,
  ) {
    this.buffer = new Type(initialCapacity);
  }

  push(value: number): void {
    if (this.length === this.buffer.length) {
      const grown = new this.Type(this.buffer.length * 2);
      grown.set(this.buffer);
      this.buffer = grown;
    }
    this.buffer[this.length++] = value;
  }

  /** The filled part, sharing the buffer (transferring it to a worker moves the whole buffer). */
  view(): T {
    return this.buffer.subarray(0, this.length) as T;
  }
}

/**
 * An item's answers: annotator i gave the option index `answers[i]` (as text, as the read delivers it); in a
 * multi-select scope, the bit mask of the options it chose.
 */
export interface ItemAnswers {
  annotatorIds: string[];
  answers: string[];
}

/** What an item contributes besides its answers. */
export interface ItemFacts {
  /** 0 when the item's option set is the scope's, else its own number of options (one-coin form). */
  ownOptionCount: number;
  /** The known truth (golden tasks) as an option index (multi-select: the golden set's bit mask), −1 when unknown. */
  truth: number;
  /** Whether its answers go into the stored counts (decided and golden tasks). */
  counted: boolean;
  /** A COMPLETED task's result as an option index, −1 otherwise (the fit's guard against a label swap). */
  decided: number;
}

/** The stored counts at the snapshot of annotators 0 … n − 1 (the fit's indices; later ones had no row). */
export interface SnapshotCounts {
  matrices: Float64Array;
  correct: Float64Array;
  answered: Float64Array;
}

export class ScopeAnswersBuilder {
  private readonly annotatorIndex = new Map<string, number>();
  readonly annotatorIds: string[] = [];
  private readonly item: GrowableArray<Int32Array>;
  private readonly annotator: GrowableArray<Int32Array>;
  private readonly answer: GrowableArray<Int32Array>;
  private readonly ownOptionCount: GrowableArray<Uint16Array>;
  private readonly truth: GrowableArray<Int32Array>;
  private readonly counted: GrowableArray<Uint8Array>;
  private readonly decided: GrowableArray<Int32Array>;
  private readonly storedMatrices = new GrowableArray(Float64Array, 1 << 12);
  private readonly storedCorrect = new GrowableArray(Float64Array, 1 << 10);
  private readonly storedAnswered = new GrowableArray(Float64Array, 1 << 10);
  private hasOneCoinItems = false;
  private hasTruth = false;
  private hasDecided = false;

  /**
   * `expected`: the items and answers to make room for at once (more still fit, by doubling). `countsSide`:
   * the side of each stored counts table, the option count but for a multi-select scope's 2×2.
   */
  constructor(
    readonly optionCount: number,
    expected: { items: number; answers: number } = { items: 0, answers: 0 },
    private readonly countsSide: number = optionCount,
  ) {
    const answers = Math.max(1 << 10, expected.answers);
    const items = Math.max(1 << 10, expected.items);
    this.item = new GrowableArray(Int32Array, answers);
    this.annotator = new GrowableArray(Int32Array, answers);
    this.answer = new GrowableArray(Int32Array, answers);
    this.ownOptionCount = new GrowableArray(Uint16Array, items);
    this.truth = new GrowableArray(Int32Array, items);
    this.counted = new GrowableArray(Uint8Array, items);
    this.decided = new GrowableArray(Int32Array, items);
  }

  /** The index of an annotator, registering them on first sight. */
  annotatorOf(id: string): number {
    let index = this.annotatorIndex.get(id);
    if (index === undefined) {
      index = this.annotatorIds.length;
      this.annotatorIndex.set(id, index);
      this.annotatorIds.push(id);
    }
    return index;
  }

  /** One stored counts row; all of them come before the first item. A matrix of another size is read as countsSide². */
  addCounts(annotatorId: string, matrix: ArrayLike<number>, correct: number, answered: number): void {
    if (this.annotatorOf(annotatorId) !== this.storedCorrect.length) throw new Error(`counts row of ${annotatorId} read twice or after the answers`);
    const cells = this.countsSide * this.countsSide;
    for (let c = 0; c < cells; c++) this.storedMatrices.push(matrix[c] ?? 0);
    this.storedCorrect.push(correct);
    this.storedAnswered.push(answered);
  }

  /**
   * One item with all its answers. `answers` index the scope's options, or the item's own when
   * `ownOptionCount` > 0.
   */
  addItem({ annotatorIds, answers }: ItemAnswers, facts: ItemFacts): void {
    const item = this.ownOptionCount.length;
    this.ownOptionCount.push(facts.ownOptionCount);
    this.truth.push(facts.truth);
    this.counted.push(facts.counted ? 1 : 0);
    this.decided.push(facts.decided);
    if (facts.ownOptionCount > 0) this.hasOneCoinItems = true;
    if (facts.truth >= 0) this.hasTruth = true;
    if (facts.decided >= 0) this.hasDecided = true;
    annotatorIds.forEach((annotatorId, i) => {
      this.item.push(item);
      this.annotator.push(this.annotatorOf(annotatorId));
      this.answer.push(Number(answers[i]));
    });
  }

  /** The re-fit's input (per-item arrays it does not need — no one-coin item, no truth, no decision — left out) and the snapshot's counts. */
  build(): { answers: ScopeAnswers; snapshot: SnapshotCounts } {
    const answers: ScopeAnswers = {
      optionCount: this.optionCount,
      itemCount: this.ownOptionCount.length,
      annotatorCount: this.annotatorIds.length,
      item: this.item.view(),
      annotator: this.annotator.view(),
      answer: this.answer.view(),
      counted: this.counted.view(),
      ...(this.hasOneCoinItems ? { itemOptionCount: this.ownOptionCount.view() } : {}),
      ...(this.hasTruth ? { truth: this.truth.view() } : {}),
      ...(this.hasDecided ? { decided: this.decided.view() } : {}),
    };
    return { answers, snapshot: { matrices: this.storedMatrices.view(), correct: this.storedCorrect.view(), answered: this.storedAnswered.view() } };
  }
}
