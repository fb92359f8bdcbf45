import { randomBytes } from 'node:crypto';
import { z } from 'zod';
import { parseFaultSpec } from './fault-settings.ts';

// The standalone catalogue's configuration (`npm run catalogue`), read once from the
// environment. The explorer server starts the catalogue with its own settings instead.

const schema = z.object({
  CATALOGUE_HOST: z.string().default('127.0.0.1'),
  CATALOGUE_PORT: z.coerce.number().int().min(0).max(65535).default(8081),
  CATALOGUE_API_KEY: z.string().min(1).optional(),
  CATALOGUE_API_SECRET: z.string().min(1).optional(),
  CATALOGUE_DATA_DIR: z.string().default('data'),
  CATALOGUE_PUBLIC_URL: z.url().optional(),
  CATALOGUE_FAULTS: z.string().default(''),
  CATALOGUE_FAULT_CONTROL: z.enum(['true', 'false', '1', '0']).default('false'),
});

export function readCatalogueConfig(env: NodeJS.ProcessEnv = process.env) {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new Error(`Catalogue configuration: ${z.prettifyError(parsed.error)}`);
  }
  const e = parsed.data;
  const generated = !e.CATALOGUE_API_KEY || !e.CATALOGUE_API_SECRET;
  return {
    host: e.CATALOGUE_HOST,
    port: e.CATALOGUE_PORT,
    apiKey: e.CATALOGUE_API_KEY ?? randomBytes(18).toString('base64url'),
    apiSecret: e.CATALOGUE_API_SECRET ?? randomBytes(30).toString('base64url'),
    generatedCredentials: generated,
    dataDir: e.CATALOGUE_DATA_DIR,
    thumbnailBaseUrl: e.CATALOGUE_PUBLIC_URL?.replace(/\/$/, ''),
    faults: parseFaultSpec(e.CATALOGUE_FAULTS),
    faultControl: e.CATALOGUE_FAULT_CONTROL === 'true' || e.CATALOGUE_FAULT_CONTROL === '1',
  };
}
