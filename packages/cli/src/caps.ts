// concord caps: the spending caps (README, "Spending caps"), shown and set. A write API key may set them
// (money:write); a read key may show them.
import type { MonthlyCap, ProjectCap, SpendingCaps } from '@concord/sdk';
import { buyerClient, parseDollars } from './account.ts';
import { resolveConnection, type GlobalOptions } from './config.ts';
import { formatCents, type Output } from './output.ts';

/** "none" removes a cap; otherwise dollars, as top-up takes them. */
export const parseCap = (text: string): number | null => (text.trim().toLowerCase() === 'none' ? null : parseDollars(text));

const describeCap = (cap: number | null, committed: number) =>
  cap === null ? `no cap (${formatCents(committed)} committed)` : `${formatCents(committed)} of ${formatCents(cap)} committed`;

const describeMonth = (monthly: MonthlyCap) => `Monthly cap (${monthly.month}): ${describeCap(monthly.capCents, monthly.committedCents)}`;
const describeProject = (project: ProjectCap) =>
  `Project ${project.name} (${project.projectId}): ${describeCap(project.capCents, project.committedCents)}` +
  (project.capCents !== null && project.capAction === 'hold' ? `, holding past it (${project.heldTasks} held)` : '');

export async function showCaps(options: GlobalOptions, output: Output, userAgent: string): Promise<void> {
  const caps: SpendingCaps = await buyerClient(await resolveConnection(options), userAgent).billing.caps();
  const lines = [describeMonth(caps.monthly), ...(caps.projects.length === 0 ? ['No project has a budget cap.'] : caps.projects.map(describeProject))];
  output.result(caps, lines.join('\n'));
}

export async function setMonthlyCap(amount: string, options: GlobalOptions, output: Output, userAgent: string): Promise<void> {
  const capCents = parseCap(amount);
  const monthly = await buyerClient(await resolveConnection(options), userAgent).billing.setMonthlyCap(capCents);
  output.result(monthly, describeMonth(monthly));
}

export async function setProjectCap(
  projectId: string,
  amount: string,
  options: GlobalOptions & { hold?: boolean; refuse?: boolean },
  output: Output,
  userAgent: string,
): Promise<void> {
  const capCents = parseCap(amount);
  const project = await buyerClient(await resolveConnection(options), userAgent).projects.setBudgetCap(projectId, {
    capCents,
    ...(options.hold ? { capAction: 'hold' as const } : options.refuse ? { capAction: 'refuse' as const } : {}),
  });
  output.result(project, describeProject(project));
}
