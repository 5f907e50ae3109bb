// An endpoint is declared once: its route, who may call it, the zod schemas of its input and output,
// and its handler. The same declaration mounts the Express route and writes the OpenAPI document, so
// the two cannot drift apart.
import type { ApiKeyAccess, AuditAction, AuditActorKind, ErrorCode, MemberRole, Permission } from '@concord/contract';
import type { Request, RequestHandler, Response } from 'express';
import type { z } from 'zod';
import { ForbiddenError } from './errors.ts';

export type Role = 'BUYER' | 'DEVELOPER' | 'ADMIN';

/** A caller authenticated by a JWT, or by a buyer API key acting as its buyer. */
export interface UserPrincipal {
  kind: 'user';
  accountId: string;
  role: Role;
  /** Set when a buyer API key (`cnc_live_…` / `cnc_test_…`) authenticated the call rather than a JWT. */
  apiKeyId?: string;
}

/**
 * A buyer: a person acting for one organisation (their membership's role), or a buyer API key acting for
 * its organisation. `buyerId` is the organisation, which owns every resource a buyer route reads or writes;
 * `accountId` is the person (for a key, the organisation's founding account).
 */
export interface BuyerPrincipal extends UserPrincipal {
  role: 'BUYER';
  buyerId: string;
  /** A person's role in the organisation; null for an API key. */
  memberRole: MemberRole | null;
  /** An API key's access; absent for a person. */
  keyAccess?: ApiKeyAccess;
  /** What the caller may do there: its role's permissions (ROLE_PERMISSIONS) or its key's (API_KEY_PERMISSIONS). */
  permissions: readonly Permission[];
  /** A project-scoped API key's projects; null for a person and for a key of the whole organisation. */
  projectIds: ProjectScope;
}

/** The projects a caller is limited to; null: the whole organisation. */
export type ProjectScope = readonly string[] | null;

/** Whether a project (null: no project) is within a scope: a scoped caller sees no task outside its projects. */
export const inScope = (scope: ProjectScope, projectId: string | null): boolean => scope === null || (projectId !== null && scope.includes(projectId));

/** Why a project-scoped key may not create, move or export a task of `projectId` (null: it may): INVALID_PROJECT's message. */
export function outOfScope(scope: ProjectScope, projectId: string | null): string | null {
  if (inScope(scope, projectId)) return null;
  return projectId === null ? 'This API key is limited to projects: name one of them in projectId' : "projectId is not one of this API key's projects";
}

/** How a 403 names what the caller acts as: its role, or `write key` / `read key`. */
export const actingAs = (principal: BuyerPrincipal): string => principal.memberRole ?? `${principal.keyAccess ?? 'write'} key`;

/** 403 for a buyer whose role (or key) does not include `permission`, naming both. */
export function lacksPermission(principal: BuyerPrincipal, permission: Permission): ForbiddenError {
  const role = actingAs(principal);
  return new ForbiddenError(`Your role in this organisation (${role}) does not include ${permission}`, { permission, role });
}

/** The organisation a user principal acts for: a buyer's, undefined for a developer or an admin. */
export const actingOrganisation = (principal: UserPrincipal): string | undefined => (principal as Partial<BuyerPrincipal>).buyerId;

/**
 * Who makes a change, from where and by which operation: what the audit log records beside the change,
 * in its transaction. The router builds it for every buyer route from the caller and the operationId.
 */
export interface Actor {
  organisationId: string;
  kind: AuditActorKind;
  /** The person: a member, or the service's operator; null for an API key. */
  accountId: string | null;
  apiKeyId: string | null;
  /** The client's address as `trust proxy` reads it. */
  ip: string | null;
  action: AuditAction;
}

/** The client's address as people write it: an IPv4 address a dual-stack socket reports as IPv6 (`::ffff:…`) without the prefix. */
export const clientAddress = (ip: string | undefined): string | null => (ip === undefined ? null : ip.replace(/^::ffff:(\d{1,3}(?:\.\d{1,3}){3})$/i, '$1'));

/** A buyer's change: the person or the key acting for the organisation. */
export function buyerActor(principal: BuyerPrincipal, ip: string | undefined, action: AuditAction): Actor {
  const key = principal.apiKeyId ?? null;
  return {
    organisationId: principal.buyerId,
    kind: key ? 'apiKey' : 'member',
    accountId: key ? null : principal.accountId,
    apiKeyId: key,
    ip: clientAddress(ip),
    action,
  };
}

/** The service's operator changing an organisation (an admin's credit adjustment). */
export function operatorActor(principal: UserPrincipal, organisationId: string, ip: string | undefined, action: AuditAction): Actor {
  return { organisationId, kind: 'admin', accountId: principal.accountId, apiKeyId: null, ip: clientAddress(ip), action };
}

/** A developer app authenticated by its API key. */
export interface ApiKeyPrincipal {
  kind: 'apiKey';
  developerId: string;
}

/**
 * Who may call a route: `public`; a JWT of one role (`buyer`, `admin`, `developer`); any JWT
 * (`user`); or a developer API key (`apiKey`).
 */
export type Access = 'public' | 'buyer' | 'admin' | 'developer' | 'user' | 'apiKey';

export type PrincipalFor<A extends Access> = A extends 'public'
  ? undefined
  : A extends 'apiKey'
    ? ApiKeyPrincipal
    : A extends 'buyer'
      ? BuyerPrincipal
      : UserPrincipal;

type Schema = z.ZodType;
type Output<S> = S extends z.ZodType ? z.output<S> : undefined;

export interface HandlerContext<A extends Access, B, Q, P> {
  principal: PrincipalFor<A>;
  /**
   * On a buyer route that changes something (its operationId is one of AUDITED_ACTIONS, which the router
   * checks for every buyer route but a GET): the actor to hand the service, which appends the audit entry
   * in the change's transaction. Undefined on every other route.
   */
  actor: A extends 'buyer' ? Actor : undefined;
  body: Output<B>;
  query: Output<Q>;
  params: Output<P>;
  req: Request;
  res: Response;
}

/** Example bodies of one endpoint, as a client sends and receives them (JSON values). */
export interface EndpointExamples {
  /** The JSON request body. */
  request?: unknown;
  /** The success response body. */
  response?: unknown;
  /** Examples of `produces` content, by media type (text content as the text sent). */
  content?: Record<string, unknown>;
}

export interface EndpointDefinition<
  A extends Access = Access,
  B extends Schema | undefined = Schema | undefined,
  Q extends Schema | undefined = Schema | undefined,
  P extends Schema | undefined = Schema | undefined,
> {
  method: 'get' | 'post' | 'patch' | 'delete' | 'put';
  /** Express-style path below /api/v1, e.g. `/tasks/:id`. */
  path: string;
  /**
   * The operation's name in the OpenAPI document: stable, unique, camelCase, verb first (`createTask`,
   * `listTasks`, `getTask`, `completeSdkTask`). Client generators name their methods after it, so
   * renaming one breaks integrators' code: never change a published one.
   */
  operationId: string;
  summary: string;
  tag: string;
  access: A;
  /**
   * What the caller's role in the organisation must grant (docs/organisations.md, the permission table):
   * required on every `buyer` route (the router refuses to mount one without), absent elsewhere.
   */
  permission?: Permission;
  /**
   * The route keeps a project-scoped API key within its projects itself (filters its lists, refuses or
   * hides what lies outside). Every other buyer route answers such a key 403: it reaches the whole organisation.
   */
  projectScoped?: true;
  /**
   * A route about the person rather than the organisation (their organisations, switching, their password):
   * a token whose `org` the person has left acts here for their own organisation, so they can find their
   * way back. Everywhere else, GET /auth/me included, such a token is 403 naming the organisation.
   */
  personal?: true;
  /** Counted against the shared per-IP budget of the sensitive routes. */
  rateLimited?: boolean;
  /**
   * Account management (the password, the buyer's API keys): only a JWT from a password log-in may call
   * it. A buyer API key gets 403 FORBIDDEN, so a leaked key cannot take over the account or mint keys.
   */
  sessionOnly?: true;
  /**
   * Runs without waiting for decided tasks' effects to be applied (SettlementEffects.settled): only the
   * SDK's next and complete, which read and write no balance, earnings or event numbers. Every other
   * route first waits, so it sees every charge, earning and event of the decisions before it.
   */
  unsettledReads?: true;
  body?: B;
  /**
   * A body documented with this schema but handed to the handler unparsed (`req.body`), for routes
   * whose service validates in a prescribed order of error codes.
   */
  rawBody?: Schema;
  query?: Q;
  params?: P;
  /**
   * The 404 code of the resource the path names (e.g. `TASK_NOT_FOUND`). Required with `params`: a
   * malformed id (any length, any characters, broken percent-encoding) names nothing, so it gets this
   * 404 rather than a 400 (contract §0).
   */
  notFound?: ErrorCode;
  /** The body is handed to the handler as raw bytes (a Buffer, at most 1 MB), e.g. to verify a signature over them. */
  bodyBytes?: true;
  /** Largest JSON body accepted (contract §0: 1 MB, 10 MB on POST /tasks/batch). */
  bodyLimit?: '1mb' | '10mb';
  /**
   * The route creates something and honours `Idempotency-Key` (contract §4). `router`: the router runs
   * the handler in one transaction with the key's claim and stored response (every database call the
   * handler makes through `db.repos`/`db.transaction` joins it). `handler`: the handler does it itself
   * (task creation, on the raw-SQL transaction). Either way the header is documented.
   */
  idempotent?: 'router' | 'handler';
  /** Success status: 200 unless set. 204 sends no body. */
  status?: number;
  /** Documented success body (JSON). */
  response?: Schema;
  /**
   * Documented success content other than one JSON object, by media type: a description (e.g.
   * `{ 'text/csv': 'CSV file' }`, documented as a string), or a description with its schema.
   */
  produces?: Record<string, string | { description: string; schema: Schema }>;
  /** Headers of the success response beyond the common ones, by name: what each says (a string value). */
  responseHeaders?: Record<string, string>;
  /** Request content other than JSON (e.g. multipart), documented as given. */
  consumes?: Record<string, Schema>;
  /**
   * Route-specific error responses to document, by status (e.g. `{ 402: 'INSUFFICIENT_CREDITS' }`). The
   * codes named in a description (upper-case words with an underscore) each get an example error body.
   */
  errors?: Record<number, string>;
  /**
   * Examples for the OpenAPI document. Every JSON request and response body has one, and a test parses
   * each with this endpoint's own schemas (`body`/`rawBody`, `response`), so an example cannot drift.
   */
  examples?: EndpointExamples;
  /** Extra middleware run after authentication and before validation (e.g. a multipart parser). */
  middleware?: RequestHandler[];
  /** Returns the body to send, or nothing when it wrote the response itself. */
  handler(context: HandlerContext<A, B, Q, P>): Promise<unknown>;
}

/** Declares an endpoint with its types inferred from the schemas. */
export function defineEndpoint<
  A extends Access,
  B extends Schema | undefined = undefined,
  Q extends Schema | undefined = undefined,
  P extends Schema | undefined = undefined,
>(definition: EndpointDefinition<A, B, Q, P>): EndpointDefinition {
  return definition as unknown as EndpointDefinition;
}
