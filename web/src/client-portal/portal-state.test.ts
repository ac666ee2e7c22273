import { describe, expect, it } from "vitest";
import type { User } from "../api/current-user";
import type { PortalClient } from "./portal-client-query";
import { type PortalInputs, portalState } from "./portal-state";

const client = { role: "client", clientId: "c1" } as User;
const conversation = { id: "c1" } as PortalClient;
const state = (inputs: Partial<PortalInputs>) =>
  portalState({
    inviteInProgress: false,
    user: client,
    routeClientId: "c1",
    client: { status: "success", data: conversation },
    ...inputs,
  });

describe("what the client page shows", () => {
  it("waits while an invite is followed, the user loads, or the conversation loads", () => {
    expect(state({ inviteInProgress: true })).toEqual({ kind: "processing" });
    expect(state({ user: undefined })).toEqual({ kind: "processing" });
    expect(state({ client: { status: "pending" } })).toEqual({ kind: "processing" });
  });

  it("asks for an invite link when nobody is signed in, and sends owners to their dashboard", () => {
    expect(state({ user: null })).toEqual({ kind: "missing_auth" });
    expect(state({ user: { role: "owner" } as User })).toEqual({ kind: "redirect_owner" });
  });

  it("opens the signed-in client's own conversation when the address names none", () => {
    expect(state({ routeClientId: undefined })).toEqual({
      kind: "redirect_own_conversation",
      clientId: "c1",
    });
    expect(state({ routeClientId: undefined, user: { role: "client" } as User })).toEqual({
      kind: "no_client",
    });
  });

  it("shows the conversation, or that it does not exist", () => {
    expect(state({})).toEqual({ kind: "main", user: client, client: conversation });
    expect(state({ client: { status: "error" } })).toEqual({ kind: "no_client" });
    expect(state({ client: { status: "success" } })).toEqual({ kind: "no_client" });
  });
});
