// Login form of the plugin host's pages: posts {user, pass} to /api/login and goes on.
const form = document.getElementById("login");
const error = document.getElementById("login-error");
form?.addEventListener("submit", async (ev) => {
  ev.preventDefault();
  const data = new FormData(form);
  const res = await fetch("/api/login", {
    method: "POST",
    credentials: "same-origin",
    headers: { "Content-Type": "application/json" },
    body: JSON.stringify({ user: data.get("user"), pass: data.get("pass") }),
  });
  if (res.ok) {
    location.assign(form.dataset.next || "/plugins/logs");
  } else {
    const body = await res.json().catch(() => ({}));
    error.textContent = body.error || `Login failed (${res.status})`;
  }
});
