import { h } from "./dom";

/**
 * The page's one live region: progress of long actions and errors, in words. Screen readers announce
 * it; errors stay until the next message, progress goes once the action ends.
 */
export class StatusLine {
  readonly el = h("p", { class: "status-line", role: "status", "aria-live": "polite" });

  progress(text: string): () => void {
    this.el.className = "status-line busy";
    this.el.textContent = text;
    return () => {
      if (this.el.textContent === text) this.clear();
    };
  }

  error(text: string): void {
    this.el.className = "status-line error";
    this.el.textContent = text;
  }

  info(text: string): void {
    this.el.className = "status-line";
    this.el.textContent = text;
  }

  clear(): void {
    this.el.className = "status-line";
    this.el.textContent = "";
  }
}
