import { z } from 'zod';
import type { ProjectsService } from './projects.service.ts';
import { defineEndpoint } from '../../lib/endpoint.ts';
import { idParams, cursorSchema, limitSchema, noQuery, pageInfo } from '../../lib/schemas.ts';
import { scopedProject, type ProjectRecord } from './projects.repository.ts';
import { createProjectBody, distributionSchema, projectPairwiseSchema, projectSchema, projectWithStatsSchema, updateProjectBody } from './projects.schemas.ts';
import { projectExamples } from './projects.examples.ts';

const toProject = (project: ProjectRecord) => ({
  ...project,
  createdAt: project.createdAt.toISOString(),
  updatedAt: project.updatedAt.toISOString(),
});

export function projectEndpoints({ projects }: { projects: ProjectsService }) {
  return [
    defineEndpoint({
      method: 'post',
      idempotent: 'router',
      path: '/projects',
      operationId: 'createProject',
      examples: projectExamples.createProject,
      tag: 'Projects',
      summary: 'Create a project',
      access: 'buyer',
      permission: 'tasks:write',
      body: createProjectBody,
      status: 201,
      response: projectSchema,
      handler: async ({ actor, body }) => toProject(await projects.create(actor, body)),
    }),
    defineEndpoint({
      method: 'get',
      path: '/projects',
      operationId: 'listProjects',
      examples: projectExamples.listProjects,
      tag: 'Projects',
      summary: "List the buyer's projects",
      access: 'buyer',
      permission: 'tasks:read',
      projectScoped: true,
      query: z.strictObject({ limit: limitSchema, cursor: cursorSchema }),
      response: z.object({ projects: z.array(projectSchema), ...pageInfo }),
      handler: async ({ principal, query }) => {
        const page = await projects.list(principal.buyerId, query.limit, query.cursor, principal.projectIds);
        return { ...page, projects: page.projects.map(toProject) };
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/projects/:id',
      operationId: 'getProject',
      examples: projectExamples.getProject,
      notFound: 'PROJECT_NOT_FOUND',
      tag: 'Projects',
      summary: 'A project with its task counts and spend',
      access: 'buyer',
      permission: 'tasks:read',
      projectScoped: true,
      params: idParams,
      response: projectWithStatsSchema,
      handler: async ({ principal, params }) => {
        const project = await projects.get(principal.buyerId, scopedProject(principal, params.id));
        return { ...toProject(project), stats: project.stats };
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/projects/:id/distribution',
      operationId: 'getProjectDistribution',
      examples: projectExamples.getProjectDistribution,
      notFound: 'PROJECT_NOT_FOUND',
      tag: 'Projects',
      summary: 'Results and confidence of the completed tasks',
      access: 'buyer',
      permission: 'tasks:read',
      projectScoped: true,
      params: idParams,
      query: noQuery,
      response: distributionSchema,
      handler: ({ principal, params }) => projects.distribution(principal.buyerId, scopedProject(principal, params.id)),
    }),
    defineEndpoint({
      method: 'get',
      path: '/projects/:id/pairwise',
      operationId: 'getProjectPairwise',
      examples: projectExamples.getProjectPairwise,
      notFound: 'PROJECT_NOT_FOUND',
      tag: 'Projects',
      summary: "Pairwise groups' rankings and win rates, and the annotators' position bias",
      access: 'buyer',
      permission: 'tasks:read',
      projectScoped: true,
      params: idParams,
      query: noQuery,
      response: projectPairwiseSchema,
      handler: ({ principal, params }) => projects.pairwise(principal.buyerId, scopedProject(principal, params.id)),
    }),
    defineEndpoint({
      method: 'patch',
      path: '/projects/:id',
      operationId: 'updateProject',
      examples: projectExamples.updateProject,
      notFound: 'PROJECT_NOT_FOUND',
      tag: 'Projects',
      summary: 'Rename or describe a project, or change its quality settings',
      access: 'buyer',
      permission: 'tasks:write',
      projectScoped: true,
      params: idParams,
      body: updateProjectBody,
      response: projectSchema,
      handler: async ({ principal, actor, params, body }) => toProject(await projects.update(actor, scopedProject(principal, params.id), body)),
    }),
    defineEndpoint({
      method: 'delete',
      path: '/projects/:id',
      operationId: 'deleteProject',
      errors: { 409: 'PROJECT_HAS_TASKS: delete or move its tasks first' },
      notFound: 'PROJECT_NOT_FOUND',
      tag: 'Projects',
      summary: 'Delete a project that has no tasks',
      access: 'buyer',
      permission: 'tasks:write',
      projectScoped: true,
      params: idParams,
      status: 204,
      handler: ({ principal, actor, params }) => projects.delete(actor, scopedProject(principal, params.id)),
    }),
  ];
}
