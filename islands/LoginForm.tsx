/**
 * The plugin host's login form: posts `{user, pass}` to `/api/login` and goes on to `next`; a
 * refusal shows the server's message.
 *
 * @module
 */
import { useSignal } from "@preact/signals";

/** Props of the login form. */
export interface LoginFormProps {
  /** Where to go once signed in (a path of this server). */
  next: string;
}

/** The login form. */
export default function LoginForm({ next }: LoginFormProps) {
  const error = useSignal("");
  const busy = useSignal(false);
  const submit = async (ev: SubmitEvent) => {
    ev.preventDefault();
    const data = new FormData(ev.currentTarget as HTMLFormElement);
    busy.value = true;
    error.value = "";
    try {
      const res = await fetch("/api/login", {
        method: "POST",
        credentials: "same-origin",
        headers: { "Content-Type": "application/json" },
        body: JSON.stringify({ user: data.get("user"), pass: data.get("pass") }),
      });
      if (res.ok) return location.assign(next);
      const body = await res.json().catch(() => ({}));
      error.value = typeof body.error === "string" ? body.error : `Login failed (${res.status})`;
    } catch (err) {
      error.value = `Login failed: ${(err as Error).message}`;
    } finally {
      busy.value = false;
    }
  };
  return (
    <form
      id="login"
      class="login"
      method="post"
      action="/api/login"
      data-next={next}
      onSubmit={submit}
    >
      <label class="field">
        User <input name="user" autocomplete="username" required />
      </label>
      <label class="field">
        Password <input name="pass" type="password" autocomplete="current-password" required />
      </label>
      <button type="submit" disabled={busy.value}>Log in</button>
      <p class="error" role="alert" id="login-error">{error.value}</p>
    </form>
  );
}
