import type { Server } from "node:net";

/** Why a listener could not bind, in the one line start-up prints (`listen error: ...`). */
export class ListenError extends Error {}

export interface ListenTarget {
  port: number;
  /** Unset: every interface. */
  host?: string;
  /** The settings the port and host come from, named in the error line. */
  portSetting: string;
  hostSetting: string;
}

/**
 * Binds `server` to the target; a failure rejects with a ListenError saying which setting to
 * change, rather than an unhandled 'error' event and its stack trace.
 */
export function listen(server: Server, target: ListenTarget): Promise<void> {
  return new Promise((resolve, reject) => {
    const failed = (error: NodeJS.ErrnoException) => reject(new ListenError(whyNot(error, target)));
    server.once("error", failed);
    server.listen(target.port, target.host, () => {
      server.off("error", failed);
      resolve();
    });
  });
}

function whyNot(error: NodeJS.ErrnoException, target: ListenTarget): string {
  const { port, host, portSetting, hostSetting } = target;
  switch (error.code) {
    case "EADDRINUSE":
      return `${portSetting} ${port} is in use`;
    case "EACCES":
      return `${portSetting} ${port} needs privileges this process lacks (choose a port above 1023)`;
    case "EADDRNOTAVAIL":
      return `${hostSetting} ${host} is not an address of this machine`;
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return `${hostSetting} ${host} does not resolve to an address`;
    default:
      return `${portSetting} ${port}${host ? ` on ${host}` : ""}: ${error.code ?? error.message}`;
  }
}
