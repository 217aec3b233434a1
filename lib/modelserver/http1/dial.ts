/**
 * Opening connections for the HTTP/1.1 client: TCP (`Deno.connect`) with TLS on top for https
 * (`Deno.startTls`, certificate checked against the URL's host name), and host names resolved
 * once through the system's resolver (`/etc/hosts` included) and then reused for a while, each
 * address tried in turn (`localhost` may be `::1` first while the server listens on 127.0.0.1).
 * When `--allow-net` names the host but not its addresses, the connection is opened by name.
 *
 * @module
 */
import type { ByteSource } from "./reader.ts";

/** A connection as the client uses it. */
export interface Connection extends ByteSource {
  write(p: Uint8Array): Promise<number>;
  close(): void;
}

/** Where to connect. */
export interface Endpoint {
  tls: boolean;
  /** Host name or address, without IPv6 brackets. */
  hostname: string;
  port: number;
}

/** Opens a connection to an endpoint. */
export type Connector = (endpoint: Endpoint) => Promise<Connection>;

/** Options of {@linkcode tcpConnector}. */
export interface TcpConnectorOptions {
  /** Extra trusted certificates (PEM) for https. @default the system's */
  caCerts?: string[];
  /** Resolves a host name to addresses, best first. @default the system's resolver */
  resolve?: (hostname: string) => Promise<string[]>;
  /** How long resolved addresses are reused. @default 30_000 */
  cacheMs?: number;
}

const IPV4 = /^\d{1,3}(\.\d{1,3}){3}$/;

/** Whether a host is an address literal (no resolving needed). */
export function isAddress(hostname: string): boolean {
  return IPV4.test(hostname) || hostname.includes(":");
}

async function systemResolve(hostname: string): Promise<string[]> {
  const { lookup } = await import("node:dns/promises");
  return (await lookup(hostname, { all: true })).map((a) => a.address);
}

/**
 * Whether an error is a permission refused (`--allow-net` scoped to names: the name may be
 * reached, its addresses may not, or the resolver may not be asked).
 */
function refusedByPermission(err: unknown): boolean {
  return err instanceof Deno.errors.NotCapable || err instanceof Deno.errors.PermissionDenied ||
    (err as { code?: unknown })?.code === "EPERM";
}

/** Errors after which the next address of the host is worth trying. */
function tryNext(err: unknown): boolean {
  return err instanceof Deno.errors.ConnectionRefused ||
    err instanceof Deno.errors.NetworkUnreachable || err instanceof Deno.errors.TimedOut ||
    err instanceof Deno.errors.AddrNotAvailable;
}

/** The default connector: TCP, TLS for https, resolved addresses reused. */
export function tcpConnector(options: TcpConnectorOptions = {}): Connector {
  const resolve = options.resolve ?? systemResolve;
  const cacheMs = options.cacheMs ?? 30_000;
  const cache = new Map<string, { addresses: string[]; until: number }>();

  const addressesOf = async (hostname: string): Promise<string[]> => {
    if (isAddress(hostname)) return [hostname];
    const hit = cache.get(hostname);
    if (hit && hit.until > performance.now()) return hit.addresses;
    let addresses: string[];
    try {
      addresses = await resolve(hostname);
    } catch (err) {
      if (refusedByPermission(err)) return [hostname]; // Deno.connect resolves it then
      throw err;
    }
    if (addresses.length === 0) throw new Deno.errors.NotFound(`Cannot resolve '${hostname}'`);
    cache.set(hostname, { addresses, until: performance.now() + cacheMs });
    return addresses;
  };

  return async (endpoint) => {
    const addresses = await addressesOf(endpoint.hostname);
    let tcp: Deno.TcpConn | null = null;
    let last: unknown;
    for (const address of addresses) {
      try {
        tcp = await Deno.connect({ hostname: address, port: endpoint.port });
        if (address !== addresses[0]) {
          // The address that answered goes first next time.
          cache.set(endpoint.hostname, {
            addresses: [address, ...addresses.filter((a) => a !== address)],
            until: performance.now() + cacheMs,
          });
        }
        break;
      } catch (err) {
        if (refusedByPermission(err) && address !== endpoint.hostname) {
          // Allowed by name only: connect by name (Deno tries its first address).
          cache.set(endpoint.hostname, { addresses: [endpoint.hostname], until: Infinity });
          tcp = await Deno.connect({ hostname: endpoint.hostname, port: endpoint.port });
          break;
        }
        if (!tryNext(err)) throw err;
        last = err;
      }
    }
    if (tcp === null) {
      cache.delete(endpoint.hostname);
      throw last;
    }
    tcp.setNoDelay(true);
    if (!endpoint.tls) return tcp;
    try {
      return await Deno.startTls(tcp, {
        hostname: endpoint.hostname,
        alpnProtocols: ["http/1.1"],
        ...(options.caCerts ? { caCerts: options.caCerts } : {}),
      });
    } catch (err) {
      closeQuietly(tcp);
      throw err;
    }
  };
}

/** Closes a connection that may be closed already. */
export function closeQuietly(conn: Connection): void {
  try {
    conn.close();
  } catch (err) {
    if (!(err instanceof Deno.errors.BadResource)) throw err;
  }
}
