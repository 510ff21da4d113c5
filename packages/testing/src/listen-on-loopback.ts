/** A server that listens like `net.Server`: `node:https`'s, or `smtp-server`'s `SMTPServer`. */
export interface LoopbackListener {
  once(event: "error", listener: (error: Error) => void): unknown;
  off(event: "error", listener: (error: Error) => void): unknown;
  listen(port: number, host: string, callback: () => void): unknown;
}

/**
 * Starts `server` listening on 127.0.0.1 at `port` (0: an ephemeral one). Resolves once it
 * listens; rejects with the server's error when it cannot (e.g. the port is taken), without
 * leaving that error listener behind.
 */
export function listenOnLoopback(server: LoopbackListener, port: number): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(port, "127.0.0.1", () => {
      server.off("error", reject);
      resolve();
    });
  });
}
