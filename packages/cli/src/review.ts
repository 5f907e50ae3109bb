// concord tasks reject: result review (README, "Result review"). The service checks the rest (COMPLETED,
// within 7 days, once); a missing reason is refused here, before anything is sent.
import type { Task } from '@concord/sdk';
import { buyerClient } from './account.ts';
import { resolveConnection, type GlobalOptions } from './config.ts';
import { usageError } from './errors.ts';
import type { Output } from './output.ts';

export async function rejectResult(taskId: string, options: GlobalOptions & { reason?: string }, output: Output, userAgent: string): Promise<void> {
  const reason = options.reason?.trim() ?? '';
  if (reason === '') throw usageError('give --reason: why the result is wrong');
  const task: Task = await buyerClient(await resolveConnection(options), userAgent).tasks.reject(taskId, reason);
  output.result(
    task,
    `Task ${task.id}: result ${JSON.stringify(task.rejection?.result ?? '')} rejected; ${task.status} again at target ${task.targetConfidence} ` +
      `(up to ${task.maxResponses} answers), its charge refunded`,
  );
}
