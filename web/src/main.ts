import "leaflet/dist/leaflet.css";
import "@zazuko/yasgui/build/yasgui.min.css";
import "./styles.css";
import { session } from "./api/session";
import { readClientConfig } from "./config";
import { AppShell } from "./views/app-shell";
import { loginView } from "./views/login-view";

/**
 * The dashboard's entry: the login view while no token is held (when the service asks for one),
 * then the app; an expired session or a log out brings the login view back.
 */
function boot(): void {
  const config = readClientConfig();
  session.configure(config.authRequired);
  const root = document.getElementById("app")!;
  let shell: AppShell | undefined;

  const showLogin = (notice?: string) => {
    shell?.stop();
    shell = undefined;
    root.replaceChildren(loginView(showApp, notice));
  };
  const showApp = () => {
    performance.mark("citygraph:app-start");
    shell = new AppShell(config, () => {
      session.logout();
    });
    root.replaceChildren(shell.el);
    void shell.start();
  };
  session.onExpired((notice) => showLogin(notice));
  root.removeAttribute("aria-busy");
  if (session.loggedIn()) showApp();
  else showLogin();
}

boot();
