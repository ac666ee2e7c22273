import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { type ConnectivityOptions, createConnectivity, PROBE_DELAYS_MS } from "./connectivity";

/** A probe the test answers: each call waits until `answer` settles it. */
function controlledProbe() {
  const pending: ((answered: boolean) => void)[] = [];
  return {
    probe: vi.fn(() => new Promise<boolean>((resolve) => pending.push(resolve))),
    answer(answered: boolean) {
      const next = pending.shift();
      if (!next) throw new Error("no probe is waiting");
      next(answered);
    },
    get waiting() {
      return pending.length;
    },
  };
}

describe("the connectivity model", () => {
  beforeEach(() => vi.useFakeTimers());
  afterEach(() => vi.useRealTimers());

  const make = (extra: Partial<ConnectivityOptions> = {}) => {
    const probe = controlledProbe();
    const connectivity = createConnectivity({ probe: probe.probe, ...extra });
    const changes: string[] = [];
    connectivity.subscribe(() => changes.push(connectivity.state));
    return { probe, connectivity, changes };
  };

  it("goes offline when a request gets no answer, probes with backoff and is back online when the server answers", async () => {
    const { probe, connectivity, changes } = make();
    expect(connectivity.state).toBe("online");
    expect(connectivity.cause).toBeNull();

    connectivity.reportUnreachable();
    expect(connectivity.state).toBe("offline");
    expect(connectivity.cause).toBe("server");
    expect(probe.probe).not.toHaveBeenCalled();

    await vi.advanceTimersByTimeAsync(PROBE_DELAYS_MS[0]);
    expect(probe.probe).toHaveBeenCalledTimes(1);
    probe.answer(false);
    // The next probe waits longer.
    await vi.advanceTimersByTimeAsync(PROBE_DELAYS_MS[1] - 1);
    expect(probe.probe).toHaveBeenCalledTimes(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(probe.probe).toHaveBeenCalledTimes(2);
    probe.answer(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(connectivity.state).toBe("online");
    expect(changes).toEqual(["offline", "online"]);

    // Online: no more probes.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(probe.probe).toHaveBeenCalledTimes(2);
    connectivity.stop();
  });

  it("waits at most the last delay between probes, and a request's answer ends the offline time at once", async () => {
    const { probe, connectivity } = make();
    connectivity.reportUnreachable();
    let elapsed = 0;
    for (const delay of [...PROBE_DELAYS_MS, PROBE_DELAYS_MS.at(-1)!]) {
      await vi.advanceTimersByTimeAsync(delay);
      elapsed += delay;
      probe.answer(false);
    }
    expect(probe.probe).toHaveBeenCalledTimes(PROBE_DELAYS_MS.length + 1);
    connectivity.reportReachable();
    expect(connectivity.state).toBe("online");
    await vi.advanceTimersByTimeAsync(60_000);
    expect(probe.probe).toHaveBeenCalledTimes(PROBE_DELAYS_MS.length + 1);
    expect(elapsed).toBeGreaterThan(0);
    connectivity.stop();
  });

  it("probes when the socket drops and stays online if the server answers; the socket opening means online", async () => {
    const { probe, connectivity, changes } = make();
    connectivity.reportSocket(false);
    expect(probe.waiting).toBe(1);
    probe.answer(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(changes).toEqual([]);

    connectivity.reportSocket(false);
    probe.answer(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(connectivity.state).toBe("offline");
    connectivity.reportSocket(true);
    expect(connectivity.state).toBe("online");
    expect(changes).toEqual(["offline", "online"]);
    connectivity.stop();
  });

  it("follows the browser's offline and online events, probing at once when the network returns", async () => {
    const network = new EventTarget();
    let deviceOnline = true;
    const { probe, connectivity } = make({
      network: network as unknown as Window,
      isDeviceOnline: () => deviceOnline,
    });
    deviceOnline = false;
    network.dispatchEvent(new Event("offline"));
    expect(connectivity.state).toBe("offline");
    expect(connectivity.cause).toBe("device");

    deviceOnline = true;
    network.dispatchEvent(new Event("online"));
    expect(probe.waiting).toBe(1);
    probe.answer(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(connectivity.cause).toBe("server");

    // Already offline (the server away), then the device too: listeners hear of the new cause.
    const heard: (string | null)[] = [];
    connectivity.subscribe(() => heard.push(connectivity.cause));
    deviceOnline = false;
    network.dispatchEvent(new Event("offline"));
    expect(heard).toEqual(["device"]);

    deviceOnline = true;
    network.dispatchEvent(new Event("online"));
    probe.answer(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(connectivity.state).toBe("online");
    connectivity.stop();
  });

  it("a probe sent before the server came back does not take it offline again", async () => {
    const { probe, connectivity } = make();
    connectivity.reportUnreachable();
    await vi.advanceTimersByTimeAsync(PROBE_DELAYS_MS[0]);
    expect(probe.waiting).toBe(1);
    connectivity.reportReachable();
    probe.answer(false);
    await vi.advanceTimersByTimeAsync(0);
    expect(connectivity.state).toBe("online");
    connectivity.stop();
  });

  it("an answer to a request sent before the connection went away does not bring it back", () => {
    const { connectivity } = make();
    const sentAt = connectivity.epoch;
    connectivity.reportUnreachable();
    connectivity.reportReachable(sentAt);
    expect(connectivity.state).toBe("offline");
    connectivity.reportReachable(connectivity.epoch);
    expect(connectivity.state).toBe("online");
    connectivity.stop();
  });

  it("Try now probes at once instead of waiting out the backoff", async () => {
    const { probe, connectivity } = make();
    connectivity.reportUnreachable();
    connectivity.probeNow();
    expect(probe.waiting).toBe(1);
    probe.answer(true);
    await vi.advanceTimersByTimeAsync(0);
    expect(connectivity.state).toBe("online");
    connectivity.stop();
  });
});
