/**
 * Whether this instance is shutting down. Set once by the drain (server/lifecycle/drain.ts);
 * read by /readyz (503 draining, so the balancer stops sending work), by every answer
 * (Connection: close, so no keep-alive connection outlives the drain) and by the websocket
 * upgrade (refused: the client reconnects through the balancer to another instance).
 */
export class DrainState {
  private started = false;

  get draining(): boolean {
    return this.started;
  }

  begin(): void {
    this.started = true;
  }
}
