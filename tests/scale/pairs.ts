import { type JoinedClient, addJoinedClient } from "../support/conversations";
import type { Cluster } from "../support/cluster";
import { type SignedInOwner, signUpOwner } from "../support/factories";

export interface Pair {
  owner: SignedInOwner;
  client: JoinedClient;
}

/**
 * `owners` owners with `clientsPerOwner` joined clients each, all made through the balancer:
 * owners x clientsPerOwner conversations. Few owners: sign-ups are rate limited per address,
 * and every request here comes from 127.0.0.1.
 */
export async function makePairs(
  cluster: Cluster,
  owners: number,
  clientsPerOwner: number,
): Promise<Pair[]> {
  const made = await Promise.all(
    Array.from({ length: owners }, async (_, o) => {
      const owner = await signUpOwner(cluster, `Owner ${o}`);
      const pairs: Pair[] = [];
      for (let c = 0; c < clientsPerOwner; c += 1) {
        pairs.push({
          owner,
          client: await addJoinedClient(cluster, owner, { name: `Client ${o}.${c}` }),
        });
      }
      return pairs;
    }),
  );
  return made.flat();
}
