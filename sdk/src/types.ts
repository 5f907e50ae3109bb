// Request and response types taken from the generated OpenAPI types, so they follow the server.
import type { components, paths } from './generated/openapi.ts';

export type Schemas = components['schemas'];
type Method = 'get' | 'post' | 'patch' | 'delete';
type Operation<P extends keyof paths, M extends Method> = NonNullable<paths[P][M]>;
type JsonContent<T> = T extends { content: { 'application/json': infer B } } ? B : never;

/** The JSON request body of an operation. */
export type BodyOf<P extends keyof paths, M extends Method> = JsonContent<NonNullable<Operation<P, M>['requestBody']>>;
/** The JSON body of an operation's success response (200, 201 or 202). */
export type ResponseOf<P extends keyof paths, M extends Method> =
  Operation<P, M>['responses'] extends infer R
    ? R extends { 200: infer S } ? JsonContent<S> : R extends { 201: infer S } ? JsonContent<S> : R extends { 202: infer S } ? JsonContent<S> : never
    : never;
/** An operation's query parameters. */
export type QueryOf<P extends keyof paths, M extends Method> = NonNullable<Operation<P, M>['parameters']['query']>;

export type Task = Schemas['Task'];
export type TaskListItem = Schemas['TaskListItem'];
export type TaskInput = Schemas['TaskInput'];
export type Deposit = Schemas['Deposit'];
export type WebhookConfig = Schemas['WebhookConfig'];
export type WebhookDelivery = Schemas['WebhookDelivery'];
export type LedgerEntry = Schemas['LedgerEntry'];
export type Project = Schemas['Project'];
export type Reputation = Schemas['Reputation'];
export type Earnings = Schemas['Earnings'];
export type Payout = Schemas['Payout'];
export type Assignment = ResponseOf<'/sdk/tasks/next', 'get'>;
export type TaskFilters = Omit<QueryOf<'/tasks', 'get'>, 'limit' | 'cursor'>;
export type ExportQuery = QueryOf<'/exports', 'get'> & { format: 'json' | 'jsonl' | 'csv' | 'openai' | 'huggingface' | 'alpaca' };
