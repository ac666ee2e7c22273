import net from "node:net";
import { describe, expect, it } from "vitest";
import { ListenError, listen } from "./listen";

const target = { portSetting: "PORT", hostSetting: "HOST" };

describe("listen", () => {
  it("binds, or says in one line which setting to change", async () => {
    const first = net.createServer();
    await listen(first, { ...target, port: 0, host: "127.0.0.1" });
    const { port } = first.address() as net.AddressInfo;
    try {
      const second = net.createServer();
      const inUse = await listen(second, { ...target, port, host: "127.0.0.1" }).catch((e) => e);
      expect(inUse).toBeInstanceOf(ListenError);
      expect(inUse.message).toBe(`PORT ${port} is in use`);
      // 192.0.2.1 (documentation range) is no address of this machine.
      const foreign = await listen(net.createServer(), {
        ...target,
        port: 0,
        host: "192.0.2.1",
      }).catch((e) => e);
      expect(foreign.message).toBe("HOST 192.0.2.1 is not an address of this machine");
    } finally {
      await new Promise((resolve) => first.close(resolve));
    }
  });
});
