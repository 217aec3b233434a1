/**
 * `GET /plugins/connection`: the printer's connection page (state, connect form, terminal),
 * seeded with `GET /api/connection`'s answer and the terminal's recent lines.
 *
 * @module
 */
import PrinterConnection from "../../islands/PrinterConnection.tsx";
import { page } from "../../lib/http/mod.ts";
import { connectionInfo, define, hasPermission } from "../../lib/host/mod.ts";
import { TERMINAL_MAX_LINES } from "../../lib/shared/printer_connection.ts";

/** Page metadata. */
export const meta = { title: "Printer" };

/** The connection, the terminal and what the user may do. */
export const handler = define.handlers({
  async GET(c) {
    const { printer, config } = c.var.host;
    const permissions = c.var.principal.permissions;
    // Changes need a session (its CSRF token): a page fetched with an API key only shows.
    const session = c.var.csrfToken !== "";
    return page({
      info: await connectionInfo(printer, config),
      lines: printer.terminal().slice(-TERMINAL_MAX_LINES),
      canConnect: session && hasPermission(permissions, "CONNECTION"),
      canControl: session && hasPermission(permissions, "CONTROL"),
      csrfToken: c.var.csrfToken,
    });
  },
});

/** The printer's connection page. */
export default define.page<typeof handler>(function ConnectionPage({ data }) {
  return (
    <>
      <div class="page-head">
        <h1>Printer</h1>
      </div>
      <PrinterConnection {...data} />
    </>
  );
});
