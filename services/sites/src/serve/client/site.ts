/// <reference lib="dom" />
// The one script of a published page, served as a hashed static file (serve/assets.ts) under the sites'
// CSP (`script-src 'self'`). Nothing needs it to read a page: it only adds the theme toggle (when the
// site allows one, remembered in localStorage), switches tabs (without it every tab shows, titled), and
// puts a copy button on code blocks. It runs in <head> so a remembered theme applies before the first paint.
(() => {
  const root = document.documentElement;
  const THEME_KEY = "docshelf-theme";
  const toggleable = root.hasAttribute("data-theme-toggle");
  if (toggleable) {
    try {
      const saved = localStorage.getItem(THEME_KEY);
      if (saved === "light" || saved === "dark") root.setAttribute("data-theme", saved);
    } catch {
      /* storage refused: follow the system */
    }
  }

  const current = (): "light" | "dark" => {
    const set = root.getAttribute("data-theme");
    if (set === "light" || set === "dark") return set;
    return window.matchMedia("(prefers-color-scheme: dark)").matches ? "dark" : "light";
  };

  function themeToggle(): void {
    const header = document.querySelector(".site-header");
    if (!toggleable || !header) return;
    const button = document.createElement("button");
    button.type = "button";
    button.className = "theme-toggle";
    const label = () => {
      const dark = current() === "dark";
      button.setAttribute("aria-label", dark ? "Use the light theme" : "Use the dark theme");
      button.setAttribute("aria-pressed", String(dark));
      button.textContent = dark ? "☀" : "☾";
    };
    label();
    button.addEventListener("click", () => {
      const next = current() === "dark" ? "light" : "dark";
      root.setAttribute("data-theme", next);
      try {
        localStorage.setItem(THEME_KEY, next);
      } catch {
        /* not remembered */
      }
      label();
    });
    header.appendChild(button);
  }

  function tabs(): void {
    document.querySelectorAll<HTMLElement>(".tabs").forEach((container, n) => {
      const panels = Array.from(container.children).filter((el): el is HTMLElement => el.classList.contains("tab-panel"));
      if (!panels.length) return;
      const list = document.createElement("div");
      list.setAttribute("role", "tablist");
      const buttons = panels.map((panel, i) => {
        const button = document.createElement("button");
        button.type = "button";
        button.setAttribute("role", "tab");
        button.id = `tab-${n}-${i}`;
        button.textContent = panel.getAttribute("data-title") || `Tab ${i + 1}`;
        button.setAttribute("aria-controls", panel.id);
        panel.setAttribute("role", "tabpanel");
        panel.setAttribute("aria-labelledby", button.id);
        panel.tabIndex = 0;
        list.appendChild(button);
        return button;
      });
      const select = (index: number, focus: boolean) => {
        buttons.forEach((button, i) => {
          const on = i === index;
          button.setAttribute("aria-selected", String(on));
          button.tabIndex = on ? 0 : -1;
          panels[i].hidden = !on;
        });
        if (focus) buttons[index].focus();
      };
      buttons.forEach((button, i) => {
        button.addEventListener("click", () => select(i, false));
        button.addEventListener("keydown", (event) => {
          const step = event.key === "ArrowRight" ? 1 : event.key === "ArrowLeft" ? -1 : 0;
          if (step) select((i + step + buttons.length) % buttons.length, true);
        });
      });
      container.insertBefore(list, container.firstChild);
      container.classList.add("tabs-scripted");
      select(0, false);
    });
  }

  function copyButtons(): void {
    if (!navigator.clipboard) return;
    document.querySelectorAll<HTMLElement>(".code-block").forEach((block) => {
      const code = block.querySelector("pre code");
      if (!code) return;
      const button = document.createElement("button");
      button.type = "button";
      button.className = "copy";
      button.textContent = "Copy";
      button.setAttribute("aria-label", "Copy the code");
      button.addEventListener("click", () => {
        navigator.clipboard.writeText(code.textContent ?? "").then(
          () => {
            button.textContent = "Copied";
            setTimeout(() => (button.textContent = "Copy"), 1500);
          },
          () => (button.textContent = "Copy failed"),
        );
      });
      block.appendChild(button);
    });
  }

  const ready = () => {
    themeToggle();
    tabs();
    copyButtons();
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
