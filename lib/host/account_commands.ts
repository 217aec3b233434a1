/**
 * The host's account commands: `user add NAME --permissions LIST` (password from standard
 * input), `user set NAME --permissions LIST`, `user list`, `user delete NAME`, `apikey create --user NAME` (prints the key alone on
 * one line) and `apikey revoke KEY`. Shared by `deno task host` and `deno task webapp`. A
 * running host sees every change at the next request (it reads config.yaml when it changed):
 * a deleted user's keys and sessions stop working, a cut permission applies at once.
 *
 * @module
 */
import { parseOptions } from "../args.ts";
import { UsageError } from "../error.ts";
import { print } from "../log.ts";
import { UserStore } from "./auth/mod.ts";
import { ConfigFile } from "./config_file.ts";
import { HOST_ENV_VARS, resolveHostPaths } from "./paths.ts";
import { parsePermissions } from "./permissions.ts";
import { envOf } from "./supervise/child_processes.ts";

/** I/O of {@linkcode runHostCommand}. */
export interface HostCommandIo {
  /** The host's config.yaml. */
  configFile: string;
  /** Reads standard input as text. */
  readStdin(): Promise<string>;
  /** Prints one line of output. */
  print(line: string): void;
}

/** Usage text of the account commands. */
export const HOST_COMMANDS_USAGE = `Account commands:
  user add NAME --permissions LIST   add or replace a user (password read from standard input;
                                     LIST: comma-separated STATUS,CONTROL,CONNECTION,SETTINGS,ADMIN);
                                     a new password ends the user's sessions
  user set NAME --permissions LIST   change a user's permissions (sessions get them at once)
  user list                          list the users: name, permissions, password, keys
  user delete NAME                   delete a user with its API keys and sessions
  apikey create --user NAME          create an API key for NAME and print it
  apikey revoke KEY                  revoke an API key`;

/** Whether `argv` starts with an account command. */
export function isHostCommand(argv: string[]): boolean {
  return argv[0] === "user" || argv[0] === "apikey";
}

/** The process's I/O: the config.yaml of the environment's folders, standard input and output. */
function processIo(): HostCommandIo {
  const { configFile } = resolveHostPaths(envOf(HOST_ENV_VARS));
  return { configFile, readStdin: () => new Response(Deno.stdin.readable).text(), print };
}

/**
 * Runs an account command.
 *
 * @throws {UsageError} for bad usage, {NotFoundError} for an unknown user or key.
 */
export async function runHostCommand(
  argv: string[],
  io: HostCommandIo = processIo(),
): Promise<void> {
  const { values, positionals } = parseOptions({
    args: argv,
    options: { permissions: { type: "string" }, user: { type: "string" } },
    allowPositionals: true,
    strict: true,
  });
  const users = new UserStore(new ConfigFile(io.configFile));
  const [group, action, arg] = positionals;
  if (group === "user" && action === "add" && arg !== undefined && positionals.length === 3) {
    if (values.permissions === undefined) {
      throw new UsageError("Cannot add user: --permissions LIST is required");
    }
    const permissions = parsePermissions(values.permissions);
    const password = (await io.readStdin()).split(/\r?\n/)[0] ?? "";
    await users.addUser(arg, password, permissions);
    io.print(`User ${arg} saved with ${permissions.join(",")}`);
    return;
  }
  if (group === "user" && action === "set" && arg !== undefined && positionals.length === 3) {
    if (values.permissions === undefined) {
      throw new UsageError("Cannot change user: --permissions LIST is required");
    }
    const permissions = parsePermissions(values.permissions);
    await users.setPermissions(arg, permissions);
    io.print(`User ${arg} now has ${permissions.join(",")}`);
    return;
  }
  if (group === "user" && action === "list" && positionals.length === 2) {
    const accounts = await users.listUsers();
    if (accounts.length === 0) io.print("No users");
    for (const a of accounts) {
      const perms = a.permissions.length === 0 ? "-" : a.permissions.join(",");
      const password = a.hasPassword ? "password" : "no password";
      io.print(`${a.name}\t${perms}\t${password}\t${a.keys} key${a.keys === 1 ? "" : "s"}`);
    }
    return;
  }
  if (group === "user" && action === "delete" && arg !== undefined && positionals.length === 3) {
    const keys = await users.deleteUser(arg);
    io.print(`User ${arg} deleted with ${keys} key${keys === 1 ? "" : "s"}`);
    return;
  }
  if (group === "apikey" && action === "create" && positionals.length === 2) {
    if (values.user === undefined) {
      throw new UsageError("Cannot create key: --user NAME is required");
    }
    io.print(await users.createKey(values.user));
    return;
  }
  if (group === "apikey" && action === "revoke" && arg !== undefined && positionals.length === 3) {
    await users.revokeKey(arg);
    io.print("Key revoked");
    return;
  }
  throw new UsageError(`Unknown command '${positionals.join(" ")}'\n${HOST_COMMANDS_USAGE}`);
}
