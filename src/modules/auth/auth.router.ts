import { actingOrganisation, defineEndpoint } from '../../lib/endpoint.ts';
import { emptyBody } from '../../lib/schemas.ts';
import type { AuthService } from './auth.service.ts';
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
import { authExamples } from './auth.examples.ts';

export function authEndpoints({ auth }: { auth: AuthService }) {
  return [
    defineEndpoint({
      method: 'post',
      path: '/auth/register',
      operationId: 'registerBuyer',
      examples: authExamples.registerBuyer,
      errors: { 409: 'EMAIL_TAKEN: an account already uses this e-mail' },
      tag: 'Auth',
      summary: 'Register a buyer',
      access: 'public',
      rateLimited: true,
      body: registerBody,
      status: 201,
      response: registerResponse,
      handler: async ({ body }) => {
        const { token, buyer } = await auth.register(body);
        return { token, buyer: toBuyer(buyer) };
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/auth/login',
      operationId: 'loginBuyer',
      examples: authExamples.loginBuyer,
      errors: { 401: 'INVALID_CREDENTIALS: unknown e-mail or wrong password (the same answer for both)' },
      tag: 'Auth',
      summary: 'Buyer login',
      access: 'public',
      rateLimited: true,
      body: loginBody,
      response: z.object({ token: z.string(), buyer: buyerSchema }),
      handler: async ({ body }) => {
        const { token, buyer } = await auth.loginBuyer(body.email, body.password);
        return { token, buyer: toBuyer(buyer) };
      },
    }),
    defineEndpoint({
      method: 'get',
      path: '/auth/me',
      operationId: 'getCurrentAccount',
      examples: authExamples.getCurrentAccount,
      tag: 'Auth',
      summary: 'The calling account',
      access: 'user',
      response: meResponse,
      handler: async ({ principal }) => {
        const me = await auth.me(principal);
        if (me.role === 'BUYER') return { buyer: { ...toBuyerAccount(me.buyer), role: me.memberRole } };
        if (me.role === 'DEVELOPER') return { developer: toDeveloperProfile(me.developer) };
        return { admin: me.admin };
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/auth/change-password',
      operationId: 'changePassword',
      examples: authExamples.changePassword,
      errors: { 400: 'INVALID_CURRENT_PASSWORD: currentPassword is wrong' },
      tag: 'Auth',
      summary: 'Change the password; older tokens stop working',
      access: 'user',
      sessionOnly: true,
      personal: true,
      rateLimited: true,
      body: changePasswordBody,
      response: tokenResponse,
      handler: async ({ principal, body }) => ({
        token: await auth.changePassword(principal.accountId, body.currentPassword, body.newPassword, actingOrganisation(principal)),
      }),
    }),
    defineEndpoint({
      method: 'post',
      path: '/auth/regenerate-api-key',
      operationId: 'regenerateOwnApiKey',
      examples: authExamples.regenerateOwnApiKey,
      tag: 'Auth',
      summary: 'Replace the developer API key; the old one fails at once',
      access: 'developer',
      sessionOnly: true,
      rateLimited: true,
      body: emptyBody,
      response: apiKeyResponse,
      handler: async ({ principal }) => ({ apiKey: await auth.regenerateApiKey(principal.accountId) }),
    }),
    defineEndpoint({
      method: 'post',
      path: '/admin/login',
      operationId: 'loginAdmin',
      examples: authExamples.loginAdmin,
      errors: { 401: 'INVALID_CREDENTIALS: unknown e-mail or wrong password (the same answer for both)' },
      tag: 'Auth',
      summary: 'Admin login',
      access: 'public',
      rateLimited: true,
      body: loginBody,
      response: z.object({ token: z.string(), admin: adminSchema }),
      handler: ({ body }) => auth.loginAdmin(body.email, body.password),
    }),
    defineEndpoint({
      method: 'post',
      path: '/dev/login',
      operationId: 'loginDeveloper',
      examples: authExamples.loginDeveloper,
      errors: { 401: 'INVALID_CREDENTIALS: unknown e-mail or wrong password (the same answer for both)' },
      tag: 'Auth',
      summary: 'Developer login',
      access: 'public',
      rateLimited: true,
      body: loginBody,
      response: z.object({ token: z.string(), developer: developerProfileSchema }),
      handler: async ({ body }) => {
        const { token, developer } = await auth.loginDeveloper(body.email, body.password);
        return { token, developer: toDeveloperProfile(developer) };
      },
    }),
    defineEndpoint({
      method: 'post',
      path: '/dev/setup-password',
      operationId: 'setupDeveloperPassword',
      examples: authExamples.setupDeveloperPassword,
      errors: { 400: 'INVALID_TOKEN: the invite token is unknown, already used or expired' },
      tag: 'Auth',
      summary: 'Set a developer password from the invite token',
      access: 'public',
      rateLimited: true,
      body: setupPasswordBody,
      status: 204,
      handler: async ({ body }) => auth.setupDeveloperPassword(body.token, body.password),
    }),
    defineEndpoint({
      method: 'get',
      path: '/dev/me',
      operationId: 'getDeveloperProfile',
      examples: authExamples.getDeveloperProfile,
      tag: 'Auth',
      summary: 'The developer owning the API key',
      access: 'apiKey',
      response: z.object({ developer: developerProfileSchema }),
      handler: async ({ principal }) => ({ developer: toDeveloperProfile(await auth.developer(principal.developerId)) }),
    }),
  ];
}
