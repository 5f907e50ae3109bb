import { PrismaPg } from '@prisma/adapter-pg';
import { PrismaClient } from '../generated/prisma/client.ts';

export type { PrismaClient };
export { Prisma } from '../generated/prisma/client.ts';

export function createPrismaClient(connectionString: string, poolSize = 10): PrismaClient {
  return new PrismaClient({ adapter: new PrismaPg({ connectionString, max: poolSize }) });
}
