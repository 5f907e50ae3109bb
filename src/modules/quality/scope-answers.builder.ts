// Turns a scope's answer rows, as the snapshot read streams them, into the typed arrays the re-fit takes
// (src/consensus/refit.ts ScopeAnswers): annotator ids become indices through a Map, and items need none,
// because the read delivers each item's answers together (a new item starts when the item key changes).
// The arrays grow by doubling and are handed over as views on their buffers, never copied to size: at
// 10 M answers a copy would add the three arrays' 120 MB again at the moment memory peaks.
import type { ScopeAnswers } from '../../consensus/refit.ts';

type TypedArray = Int32Array | Uint16Array | Uint8Array;
type TypedArrayOf<T extends TypedArray> = { new (length: number): T };

/** An append-only typed array that doubles its buffer when full. */
class GrowableArray<T extends TypedArray> {
  private buffer: T;
  length = 0;

  constructor(
    private readonly Type: TypedArrayOf<T>,
    initialCapacity = 1 << 16,
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

/** What an item contributes besides its answers. */
export interface ItemFacts {
  /** 0 when the item's option set is the scope's, else its own number of options (one-coin form). */
  ownOptionCount: number;
  /** The known truth (golden tasks) as an option index, −1 when unknown. */
  truth: number;
  /** Whether its answers go into the stored counts (decided and golden tasks). */
  counted: boolean;
}

export class ScopeAnswersBuilder {
  private readonly annotatorIndex = new Map<string, number>();
  readonly annotatorIds: string[] = [];
  private readonly item = new GrowableArray(Int32Array);
  private readonly annotator = new GrowableArray(Int32Array);
  private readonly answer = new GrowableArray(Int32Array);
  private readonly ownOptionCount = new GrowableArray(Uint16Array, 1 << 12);
  private readonly truth = new GrowableArray(Int32Array, 1 << 12);
  private readonly counted = new GrowableArray(Uint8Array, 1 << 12);
  private lastItemKey: string | null = null;
  private hasOneCoinItems = false;
  private hasTruth = false;

  /** The index of an annotator, registering them on first sight (answerers and snapshot rows alike). */
  annotatorOf(id: string): number {
    let index = this.annotatorIndex.get(id);
    if (index === undefined) {
      index = this.annotatorIds.length;
      this.annotatorIndex.set(id, index);
      this.annotatorIds.push(id);
    }
    return index;
  }

  /**
   * One answer. Rows of one item must come together: a key different from the previous row's starts a
   * new item (the facts of its first row are the item's). `answer` indexes the scope's options, or the
   * item's own when `ownOptionCount` > 0.
   */
  add(itemKey: string, annotatorId: string, answer: number, facts: ItemFacts): void {
    if (itemKey !== this.lastItemKey) {
      this.lastItemKey = itemKey;
      this.ownOptionCount.push(facts.ownOptionCount);
      this.truth.push(facts.truth);
      this.counted.push(facts.counted ? 1 : 0);
      if (facts.ownOptionCount > 0) this.hasOneCoinItems = true;
      if (facts.truth >= 0) this.hasTruth = true;
    }
    this.item.push(this.ownOptionCount.length - 1);
    this.annotator.push(this.annotatorOf(annotatorId));
    this.answer.push(answer);
  }

  get answerCount(): number {
    return this.item.length;
  }

  get itemCount(): number {
    return this.ownOptionCount.length;
  }

  /** The re-fit's input. Per-item arrays the fit does not need (no one-coin item, no truth) are left out. */
  build(optionCount: number): ScopeAnswers {
    return {
      optionCount,
      itemCount: this.itemCount,
      annotatorCount: this.annotatorIds.length,
      item: this.item.view(),
      annotator: this.annotator.view(),
      answer: this.answer.view(),
      counted: this.counted.view(),
      ...(this.hasOneCoinItems ? { itemOptionCount: this.ownOptionCount.view() } : {}),
      ...(this.hasTruth ? { truth: this.truth.view() } : {}),
    };
  }
}
