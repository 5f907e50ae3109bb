import { defineEndpoint } from '../../lib/endpoint.ts';
import { emptyBody } from '../../lib/schemas.ts';
import type { Services } from '../../container.ts';
import { toBuyer, toBuyerAccount, toDeveloperProfile } from './auth.presenters.ts';
import {
  adminSchema,
  apiKeyResponse,
  buyerSchema,
  changePasswordBody,
  developerProfileSchema,
  loginBody,
  meResponse,
  registerBody,
  registerResponse,
  setupPasswordBody,
  tokenResponse,
} from './auth.schemas.ts';
import { z } from 'zod';

export function authEndpoints({ auth, developers }: Services) {
  return [
    defineEndpoint({
      method: 'post', path: '/auth/register', tag: 'Auth', summary: 'Register a buyer', access: 'public', rateLimited: true,
      body: registerBody, status: 201, response: registerResponse,
      handler: async ({ body }) => {
        const { token, buyer } = await auth.register(body);
        return { token, buyer: toBuyer(buyer) };
      },
    }),
    defineEndpoint({
      method: 'post', path: '/auth/login', tag: 'Auth', summary: 'Buyer login', access: 'public', rateLimited: true,
      body: loginBody, response: z.object({ token: z.string(), buyer: buyerSchema }),
      handler: async ({ body }) => {
        const { token, buyer } = await auth.loginBuyer(body.email, body.password);
        return { token, buyer: toBuyer(buyer) };
      },
    }),
    defineEndpoint({
      method: 'get', path: '/auth/me', tag: 'Auth', summary: 'The calling account', access: 'user', response: meResponse,
      handler: async ({ principal }) => {
        const me = await auth.me(principal);
        if (me.role === 'BUYER') return { buyer: toBuyerAccount(me.buyer) };
        if (me.role === 'DEVELOPER') return { developer: toDeveloperProfile(me.developer) };
        return { admin: me.admin };
      },
    }),
    defineEndpoint({
      method: 'post', path: '/auth/change-password', tag: 'Auth', summary: 'Change the password; older tokens stop working',
      access: 'user', sessionOnly: true, rateLimited: true, body: changePasswordBody, response: tokenResponse,
      handler: async ({ principal, body }) => ({
        token: await auth.changePassword(principal.accountId, body.currentPassword, body.newPassword),
      }),
    }),
    defineEndpoint({
      method: 'post', path: '/auth/regenerate-api-key', tag: 'Auth', summary: 'Replace the developer API key; the old one fails at once',
      access: 'developer', sessionOnly: true, rateLimited: true, body: emptyBody, response: apiKeyResponse,
      handler: async ({ principal }) => ({ apiKey: await auth.regenerateApiKey(principal.accountId) }),
    }),
    defineEndpoint({
      method: 'post', path: '/admin/login', tag: 'Auth', summary: 'Admin login', access: 'public', rateLimited: true,
      body: loginBody, response: z.object({ token: z.string(), admin: adminSchema }),
      handler: ({ body }) => auth.loginAdmin(body.email, body.password),
    }),
    defineEndpoint({
      method: 'post', path: '/dev/login', tag: 'Auth', summary: 'Developer login', access: 'public', rateLimited: true,
      body: loginBody, response: z.object({ token: z.string(), developer: developerProfileSchema }),
      handler: async ({ body }) => {
        const { token, developer } = await auth.loginDeveloper(body.email, body.password);
        return { token, developer: toDeveloperProfile(developer) };
      },
    }),
    defineEndpoint({
      method: 'post', path: '/dev/setup-password', tag: 'Auth', summary: 'Set a developer password from the invite token',
      access: 'public', rateLimited: true, body: setupPasswordBody, status: 204,
      handler: async ({ body }) => auth.setupDeveloperPassword(body.token, body.password),
    }),
    defineEndpoint({
      method: 'get', path: '/dev/me', tag: 'Auth', summary: 'The developer owning the API key', access: 'apiKey',
      response: z.object({ developer: developerProfileSchema }),
      handler: async ({ principal }) => ({ developer: toDeveloperProfile(await developers.get(principal.developerId)) }),
    }),
  ];
}
