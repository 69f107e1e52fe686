import { Type } from 'typebox';
import type { FastifyPluginAsyncTypebox } from '@fastify/type-provider-typebox';
import { presentAccount } from '../../src/services/accounts.js';
import { caller } from '../http/conventions.js';
import { Envelope, errorResponses, Nullable, Timestamp } from '../http/schemas.js';

const AccountSchema = Type.Object({
  id: Type.String(),
  name: Type.String(),
  plan: Type.String({ enum: ['free', 'standard', 'enterprise'] }),
  rate_limit: Nullable(Type.Object({ requests_per_minute: Type.Integer() }, { description: 'null = unlimited' })),
  created_at: Timestamp,
});

export const accountRoutes: FastifyPluginAsyncTypebox = async (app) => {
  app.get('/v1/account', {
    schema: {
      tags: ['Account'], summary: "The caller's account, plan and rate limit",
      response: { 200: Envelope(AccountSchema), ...errorResponses(401, 429) },
    },
  }, async (request) => ({ data: presentAccount(caller(request).account), message: 'Account retrieved' }));
};
