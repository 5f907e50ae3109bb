// A split that leaves a file empty is valid (the API sends the empty file in the ZIP), but rarely what was
// meant: a validation set of nothing after 3 tasks at 0.8/0.1/0.1. The sizes are the service's own
// (@concord/contract's splitSizes), so the warning names exactly the files that will come out empty.
import { splitSizes } from '@concord/contract';
import { formatCount } from '../ui/format';

export type SplitPart = 'train' | 'val' | 'test';

const PARTS: readonly SplitPart[] = ['train', 'val', 'test'];

export interface SplitForecast {
  sizes: Record<SplitPart, number>;
  /** The parts that will hold no record, in file order. */
  empty: SplitPart[];
  /** "val will be empty: 3 tasks at 0.8/0.1/0.1 give train 2, val 0, test 1"; null when no part is empty, or nothing is exported at all. */
  warning: string | null;
}

const list = (words: readonly string[]) => (words.length <= 1 ? words.join('') : `${words.slice(0, -1).join(', ')} and ${words[words.length - 1]}`);

/** What a split of `records` records at these ratios gives, and a warning when it leaves a part empty. */
export function forecastSplit(records: number, ratios: { train: number; val: number; test: number }): SplitForecast {
  const sizes = splitSizes(records, ratios.train, ratios.val);
  const empty = PARTS.filter((part) => sizes[part] === 0);
  const warning =
    records === 0 || empty.length === 0
      ? null
      : `${list(empty)} will be empty: ${formatCount(records)} ${records === 1 ? 'task' : 'tasks'} at ${ratios.train}/${ratios.val}/${ratios.test} ${
          records === 1 ? 'gives' : 'give'
        } ${PARTS.map((part) => `${part} ${formatCount(sizes[part])}`).join(', ')}`;
  return { sizes, empty, warning };
}
