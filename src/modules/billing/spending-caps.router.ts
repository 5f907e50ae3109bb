// Spending caps (docs/organisations.md; README, "Spending caps"): money:read sees them, money:write sets them
// (owners, admins and billing members; a write API key).
import { defineEndpoint } from '../../lib/endpoint.ts';
import { EXAMPLE } from '../../lib/openapi-examples.ts';
import { idParams } from '../../lib/schemas.ts';
import { capsResponse, monthlyCapSchema, projectCapSchema, setCapBody, setProjectCapBody } from './spending-caps.schemas.ts';
import type { SpendingCapsService } from './spending-caps.service.ts';

const month = { capCents: 2_000_000, committedCents: 1_254_300, month: EXAMPLE.createdAt.slice(0, 7) };
const project = { projectId: EXAMPLE.projectId, name: 'Support tickets', capCents: 50_000, capAction: 'hold', committedCents: 49_990, heldTasks: 12 };

export function spendingCapEndpoints({ spendingCaps }: { spendingCaps: SpendingCapsService }) {
  return [
    defineEndpoint({
      method: 'get',
      path: '/billing/caps',
      operationId: 'getSpendingCaps',
      examples: { response: { monthly: month, projects: [project] } },
      tag: 'Billing',
      summary: "The organisation's monthly cap and its projects' budget caps, with what each has committed",
      access: 'buyer',
      permission: 'money:read',
      response: capsResponse,
      handler: ({ principal }) => spendingCaps.overview(principal.buyerId),
    }),
    defineEndpoint({
      method: 'put',
      path: '/billing/caps/monthly',
      operationId: 'setMonthlyCap',
      examples: { request: { capCents: 2_000_000 }, response: month },
      tag: 'Billing',
      summary: 'Set or remove the monthly cap: what the tasks created in one calendar month (UTC) may commit',
      access: 'buyer',
      permission: 'money:write',
      body: setCapBody,
      response: monthlyCapSchema,
      handler: ({ actor, body }) => spendingCaps.setMonthlyCap(actor, body.capCents),
    }),
    defineEndpoint({
      method: 'put',
      path: '/projects/:id/budget-cap',
      operationId: 'setProjectBudgetCap',
      notFound: 'PROJECT_NOT_FOUND',
      examples: { request: { capCents: 50_000, capAction: 'hold' }, response: project },
      tag: 'Billing',
      summary:
        "Set or remove a project's budget cap (what its tasks may commit over its whole life) and what it does past it; releases held tasks that now fit",
      access: 'buyer',
      permission: 'money:write',
      params: idParams,
      body: setProjectCapBody,
      response: projectCapSchema,
      handler: ({ actor, params, body }) => spendingCaps.setProjectCap(actor, params.id, body),
    }),
  ];
}
