import { session } from "../api/session";
import { h } from "../ui/dom";

/** The login form (`POST /v1/auth/login`); `done` runs once a token is held in memory. */
export function loginView(done: () => void, notice?: string): HTMLElement {
  const error = h("p", { class: "error", role: "alert", id: "login-error" }, notice ?? "");
  const user = h("input", { id: "login-user", name: "username", autocomplete: "username", required: true });
  const pass = h("input", {
    id: "login-pass",
    name: "password",
    type: "password",
    autocomplete: "current-password",
    required: true,
  });
  const submit = h("button", { type: "submit" }, "Log in");
  const form = h(
    "form",
    {
      class: "login",
      "aria-describedby": "login-error",
      onsubmit: async (e: Event) => {
        e.preventDefault();
        submit.disabled = true;
        submit.textContent = "Logging in…";
        error.textContent = "";
        try {
          await session.login(user.value.trim(), pass.value);
          done();
        } catch (err) {
          error.textContent = (err as Error).message;
          submit.disabled = false;
          submit.textContent = "Log in";
          pass.focus();
        }
      },
    },
    h("h1", {}, "citygraph operations"),
    h("label", { for: "login-user" }, "User name"),
    user,
    h("label", { for: "login-pass" }, "Password"),
    pass,
    submit,
    error,
  );
  queueMicrotask(() => user.focus());
  return h("main", { id: "main", class: "login-page" }, form);
}
