import type { LabelQualityService } from './label-quality.service.ts';
import { defineEndpoint } from '../../lib/endpoint.ts';
import { scopedProject } from '../projects/projects.repository.ts';
import { idParams, noQuery } from '../../lib/schemas.ts';
import { MAX_OPTION_SETS, optionSetsQualitySchema, qualityReportSchema } from './label-quality.schemas.ts';
import { labelQualityExamples } from './label-quality.examples.ts';

export function labelQualityEndpoints({ labelQuality }: { labelQuality: LabelQualityService }) {
  return [
    defineEndpoint({
      method: 'get',
      path: '/projects/:id/quality',
      operationId: 'getProjectQuality',
      examples: labelQualityExamples.getProjectQuality,
      notFound: 'PROJECT_NOT_FOUND',
      tag: 'Projects',
      summary: "How far a project's labels can be trusted: expected accuracy, golden evidence, shares, cost",
      access: 'buyer',
      permission: 'tasks:read',
      projectScoped: true,
      params: idParams,
      query: noQuery,
      response: qualityReportSchema,
      handler: ({ principal, params }) => labelQuality.project(principal.buyerId, scopedProject(principal, params.id)),
    }),
    defineEndpoint({
      method: 'get',
      path: '/quality/option-sets',
      operationId: 'getOptionSetsQuality',
      examples: labelQualityExamples.getOptionSetsQuality,
      tag: 'Projects',
      summary: `The same report for tasks without a project, one per option set (the ${MAX_OPTION_SETS} with the most tasks)`,
      access: 'buyer',
      permission: 'tasks:read',
      query: noQuery,
      response: optionSetsQualitySchema,
      handler: async ({ principal }) => ({ optionSets: await labelQuality.optionSets(principal.buyerId) }),
    }),
  ];
}
