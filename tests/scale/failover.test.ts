import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import type { TestAgent } from "../support/server";
import { type Cluster, startCluster } from "../support/cluster";
import { ConversationTab } from "../support/conversation-tab";
import { makePairs, type Pair } from "./pairs";

/**
 * An instance lost while conversations are under way, behind HAProxy (deploy/haproxy.cfg):
 * the tabs on it reconnect through the balancer to the others and catch up, and every message
 * the server acknowledged reaches both sides exactly once.
 */

const MESSAGES_PER_SIDE = 5;

interface Conversation {
  pair: Pair;
  owner: ConversationTab;
  client: ConversationTab;
  /** Ids the server acknowledged (2xx), both sides'. */
  acked: string[];
  /** Sends that got no acknowledgement after the web client's retries. */
  unacked: string[];
}

/** A tab for each side of each pair, all open (and caught up). */
async function openConversations(pairs: Pair[]): Promise<Conversation[]> {
  const conversations = pairs.map((pair) => ({
    pair,
    owner: new ConversationTab(pair.owner.agent, pair.client.id),
    client: new ConversationTab(pair.client.agent, pair.client.id),
    acked: [] as string[],
    unacked: [] as string[],
  }));
  await Promise.all(
    conversations.flatMap((conversation) => [
      conversation.owner.open(),
      conversation.client.open(),
    ]),
  );
  return conversations;
}

const tabsOf = (conversations: Conversation[]) =>
  conversations.flatMap((conversation) => [conversation.owner, conversation.client]);

/**
 * Every side sends MESSAGES_PER_SIDE messages, one after the other; `whenUnderWay` runs once
 * a third of all are acknowledged (the instance goes away mid-conversation).
 */
async function talk(
  conversations: Conversation[],
  label: string,
  whenUnderWay: () => Promise<void>,
): Promise<void> {
  const total = conversations.length * 2 * MESSAGES_PER_SIDE;
  let answered = 0;
  let trigger: Promise<void> | undefined;
  const side = async (
    conversation: Conversation,
    tab: ConversationTab,
    role: string,
    index: number,
  ) => {
    for (let n = 0; n < MESSAGES_PER_SIDE; n += 1) {
      const content = `${label}: ${index} ${role} #${n}`;
      const id = await tab.send(content);
      if (id) conversation.acked.push(id);
      else conversation.unacked.push(content);
      answered += 1;
      if (answered >= total / 3) trigger ??= whenUnderWay();
    }
  };
  await Promise.all(
    conversations.flatMap((conversation, index) => [
      side(conversation, conversation.owner, "owner", index),
      side(conversation, conversation.client, "client", index),
    ]),
  );
  await trigger;
}

/** What the server holds for the conversation, oldest first (a side's full page). */
async function storedMessages(agent: TestAgent, clientId: string) {
  const answer = await agent.get<{ id: string; content: string }[]>(
    `/api/clients/${clientId}/messages?limit=200`,
  );
  expect(answer.status).toBe(200);
  return answer.body;
}

/** Both sides know every acknowledged message, once; the server holds each once. */
async function expectNothingLostOrRepeated(conversations: Conversation[]) {
  for (const conversation of conversations) {
    await conversation.owner.waitUntilKnows(conversation.acked);
    await conversation.client.waitUntilKnows(conversation.acked);
  }
  for (const { owner, client, acked, pair } of conversations) {
    for (const tab of [owner, client]) expect(new Set(tab.known).size).toBe(tab.known.length);
    const stored = await storedMessages(pair.owner.agent, pair.client.id);
    const ids = stored.map((message) => message.id);
    for (const id of acked) expect(ids.filter((stored) => stored === id)).toHaveLength(1);
    // A send retried with its key after a lost answer is stored once, never twice.
    const contents = stored.map((message) => message.content);
    expect(new Set(contents).size).toBe(contents.length);
    // Every side sees the same conversation as the server.
    expect(owner.known).toEqual(ids);
    expect(client.known).toEqual(ids);
  }
}

/** The instance holding the most of these tabs' sockets. */
function busiestInstance(tabs: ConversationTab[]): string {
  const counts = new Map<string, number>();
  for (const tab of tabs)
    counts.set(tab.instance ?? "?", (counts.get(tab.instance ?? "?") ?? 0) + 1);
  return [...counts].sort((a, b) => b[1] - a[1])[0]![0];
}

describe.skipIf(!process.env.TEST_DATABASE_URL)("an instance lost while 50 pairs talk", () => {
  let cluster: Cluster;
  let pairs: Pair[];
  let open: Conversation[] = [];
  beforeAll(async () => {
    cluster = await startCluster();
    pairs = await makePairs(cluster, 10, 5);
  }, 120_000);
  afterEach(() => {
    for (const tab of tabsOf(open)) tab.close();
    open = [];
  });
  afterAll(() => cluster?.stop());

  it("kill -9: its sockets reconnect through the balancer and catch up, nothing acknowledged lost or doubled", {
    timeout: 120_000,
  }, async () => {
    open = await openConversations(pairs);
    const tabs = tabsOf(open);
    const victim = busiestInstance(tabs);
    const onVictim = tabs.filter((tab) => tab.instance === victim);
    expect(onVictim.length).toBeGreaterThan(10);

    await talk(open, "kill", async () => {
      expect(await cluster.kill(victim)).toEqual({ code: null, signal: "SIGKILL" });
    });

    for (const tab of onVictim) {
      expect(tab.closes[0]?.code).toBe(1006);
      await tab.waitUntilOpenElsewhere(victim);
    }
    await expectNothingLostOrRepeated(open);
    // A send the killed instance had taken but not stored keeps its key claimed until the
    // claim's lease (2 min) runs out: its retries are told 409 "being processed", and the
    // web client offers to send it again. Nothing else stays unanswered.
    for (const tab of tabs) for (const failure of tab.failures) expect(failure).toBe("409");

    await cluster.restart(victim);
    expect(await cluster.states()).toEqual({ app1: "UP", app2: "UP", app3: "UP" });
  });

  it("SIGTERM: sockets close with 1012 and reconnect elsewhere at once, nothing acknowledged lost, exit within 10 s", {
    timeout: 120_000,
  }, async () => {
    // Fresh tabs: the balancer spreads them over all three instances (fewest connections first).
    open = await openConversations(pairs.slice(0, 30));
    const tabs = tabsOf(open);
    const victim = busiestInstance(tabs);
    const onVictim = tabs.filter((tab) => tab.instance === victim);
    expect(onVictim.length).toBeGreaterThan(5);

    let exit: Awaited<ReturnType<Cluster["terminate"]>> | undefined;
    await talk(open, "term", async () => {
      exit = await cluster.terminate(victim);
    });
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(exit!.ms).toBeLessThan(10_000);

    for (const tab of onVictim) {
      expect(tab.closes[0]?.code).toBe(1012);
      await tab.waitUntilOpenElsewhere(victim);
    }
    await expectNothingLostOrRepeated(open);
    // A stopping instance finishes what it took: nothing was left unanswered.
    expect(open.flatMap((conversation) => conversation.unacked)).toEqual([]);
  });
});
