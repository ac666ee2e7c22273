/**
 * Whether this instance is shutting down. Set once by the drain (server/lifecycle/drain.ts);
 * read by /readyz (503 draining, so the balancer stops sending work), by every answer
 * (Connection: close, so no keep-alive connection outlives the drain). The websocket server
 * keeps its own flag, set when the drain closes it: upgrades after that are refused 503.
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
