import { Layout } from "./_layout.tsx";

/** The login page (the form is driven by `/static/plugins/login.js`). */
export default function LoginPage({ next }: { next: string }) {
  return (
    <Layout title="Log in">
      <form id="login" class="login" data-next={next}>
        <label>
          User <input name="user" autocomplete="username" required />
        </label>
        <label>
          Password <input name="pass" type="password" autocomplete="current-password" required />
        </label>
        <button type="submit">Log in</button>
        <p class="error" role="alert" id="login-error" />
      </form>
      <script type="module" src="/static/plugins/login.js" />
    </Layout>
  );
}
