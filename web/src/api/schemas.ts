// The API's schemas, as the types generated from the service's OpenAPI document name them: a module of
// its own so that vocabulary and pages can name a schema without importing the client.
import type { components } from '../../../sdk/src/generated/openapi';

export type Schemas = components['schemas'];
