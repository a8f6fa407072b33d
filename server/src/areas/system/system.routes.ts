import { z } from 'zod';
import { defineRoute } from '../../http/define-route.ts';

export const systemRoutes = [
  defineRoute({
    method: 'GET',
    path: '/home/version.json',
    area: 'system',
    summary: 'Server version (public)',
    access: { public: true },
    response: z.object({ version: z.string(), api: z.string() }),
    handler: ({ ctx }) => ({ version: ctx.version, api: 'v1' }),
  }),
];
