import { z } from 'zod';

export const databaseKindSchema = z.enum(['pglite', 'postgres']);
export type DatabaseKind = z.infer<typeof databaseKindSchema>;

export const healthSchema = z.object({
  status: z.literal('ok'),
  database: databaseKindSchema,
  databaseVersion: z.string(),
  version: z.string(),
});
export type Health = z.infer<typeof healthSchema>;
