/**
 * The signed-in host user in the top bar, with a logout button: `POST /api/logout` (with the
 * session's CSRF token), then the login page. Any other refusal shows the server's message.
 *
 * @module
 */
import { useSignal } from "@preact/signals";

/** Props of the user menu. */
export interface UserMenuProps {
  user: string;
  /** The session's CSRF token (empty when the page was opened with an API key). */
  csrfToken: string;
}

/** The user's name and the logout button. */
export default function UserMenu({ user, csrfToken }: UserMenuProps) {
  const busy = useSignal(false);
  const error = useSignal("");
  const logout = async () => {
    busy.value = true;
    error.value = "";
    try {
      const res = await fetch("/api/logout", {
        method: "POST",
        credentials: "same-origin",
        headers: { "X-CSRF-Token": csrfToken },
      });
      // 401: the session had already ended; either way the browser is signed out.
      if (res.ok || res.status === 401) return location.assign("/plugins/login");
      const body = await res.json().catch(() => ({}));
      error.value = typeof body.error === "string" ? body.error : `Logout failed (${res.status})`;
    } catch (err) {
      error.value = `Logout failed: ${(err as Error).message}`;
    } finally {
      busy.value = false;
    }
  };
  return (
    <span class="user-menu">
      <span class="user" data-testid="user" title="Signed in to the plugin host">{user}</span>
      {csrfToken
        ? (
          <button
            type="button"
            class="logout"
            data-testid="logout"
            disabled={busy.value}
            onClick={logout}
          >
            Log out
          </button>
        )
        : null}
      {error.value ? <span class="topbar-error" role="alert">{error.value}</span> : null}
    </span>
  );
}
