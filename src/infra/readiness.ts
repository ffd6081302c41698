export type Check = 'ok' | 'unreachable' | 'unused';

export interface Readiness {
  ready: boolean;
  database: Check;
  redis: Check;
}

/** A check slower than this counts as unreachable: a load balancer should not wait on a sick node. */
const CHECK_TIMEOUT_MS = 2000;

/** Whether this node can serve: its database answers, and so does Redis when one is configured. */
export async function checkReadiness(probes: { database: () => Promise<unknown>; redis?: () => Promise<unknown> }): Promise<Readiness> {
  const [database, cache] = await Promise.all([probe(probes.database), probes.redis ? probe(probes.redis) : Promise.resolve<Check>('unused')]);
  return { ready: database === 'ok' && cache !== 'unreachable', database, redis: cache };
}

async function probe(check: () => Promise<unknown>): Promise<Check> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error('timeout')), CHECK_TIMEOUT_MS);
  });
  try {
    await Promise.race([check(), timeout]);
    return 'ok';
  } catch {
    return 'unreachable';
  } finally {
    clearTimeout(timer);
  }
}
