// bench:ingest's sustained figure, shared with bench:cli-import (which sets the CLI against it in the same
// run): 16 connections posting 1 000-task JSON batches back to back (autocannon), 2xx × 1 000 / seconds.
import autocannon from 'autocannon';

export const BATCH = 1_000;
export const CONCURRENT_CLIENTS = 16;

/** The content of the i-th task of a batch tagged `tag` (bench:cli-import writes the same rows into its CSV). */
export const reviewContent = (tag: string, i: number) => `Review ${tag}-${i}: the delivery was quick and the product works as described.`;

export function batchBody(tag: string) {
  return {
    tasks: Array.from({ length: BATCH }, (_, i) => ({
      type: 'SENTIMENT_ANALYSIS',
      content: reviewContent(tag, i),
      options: ['positive', 'negative', 'neutral'],
    })),
  };
}

/** Tasks per second created by 16 clients posting 1 000-task batches for `seconds`. */
export async function sustainedIngest(base: string, token: string, seconds: number, log: (message: string) => void = () => undefined): Promise<number> {
  const result = await autocannon({
    url: `${base}/api/v1/tasks/batch`,
    method: 'POST',
    connections: CONCURRENT_CLIENTS,
    duration: seconds,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(batchBody('sustained')),
  });
  if (result.non2xx > 0 || result.errors > 0) log(`sustained: ${result.non2xx} non-2xx, ${result.errors} errors`);
  return (result['2xx'] * BATCH) / seconds;
}
