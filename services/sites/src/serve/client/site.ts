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

  /**
   * GitBook's dark variants of images (`<picture><source media="(prefers-color-scheme: dark)">`) follow the
   * page's theme when the reader chose one, not only the system's: the media query of each such source
   * becomes `all` or `not all` (its original kept in data-media), and the browser picks the image again.
   */
  function syncPictures(): void {
    const theme = root.getAttribute("data-theme");
    document.querySelectorAll<HTMLSourceElement>("picture > source[media]").forEach((source) => {
      const original = source.dataset.media ?? source.getAttribute("media") ?? "";
      source.dataset.media = original;
      const scheme = /^\(prefers-color-scheme: (dark|light)\)$/.exec(original)?.[1];
      if (!scheme) return;
      const media = theme === "light" || theme === "dark" ? (scheme === theme ? "all" : "not all") : original;
      if (source.getAttribute("media") !== media) source.setAttribute("media", media);
    });
  }

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
      syncPictures();
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

  interface Piece {
    text: string;
    match?: boolean;
  }
  interface Item {
    title: Piece[];
    href: string;
    section?: string;
    space?: string;
    snippet: Piece[];
  }

  /** Text pieces as DOM: text nodes, the matched words in <mark>. Never markup from the answer. */
  function pieces(into: HTMLElement, list: Piece[]): void {
    for (const piece of list) {
      if (typeof piece?.text !== "string") continue;
      if (piece.match) {
        const mark = document.createElement("mark");
        mark.textContent = piece.text;
        into.appendChild(mark);
      } else into.appendChild(document.createTextNode(piece.text));
    }
  }

  /**
   * Search as you type: the header's search form (which without script opens the search page) asks the
   * site's `~search.json` while the reader types (debounced), shows the pages found as a listbox under
   * the box (arrows move, Enter opens, Escape closes), and Cmd/Ctrl-K or "/" focuses the box.
   */
  function searchBox(): void {
    const form = document.querySelector<HTMLFormElement>("form.search");
    const input = form?.querySelector<HTMLInputElement>('input[name="q"]');
    const action = form?.getAttribute("action");
    if (!form || !input || !action || typeof fetch !== "function") return;
    const endpoint = `${action}.json`;
    const list = document.createElement("ul");
    list.id = "search-suggestions";
    list.className = "search-popup";
    list.setAttribute("role", "listbox");
    list.setAttribute("aria-label", "Search results");
    list.hidden = true;
    const status = document.createElement("p");
    status.className = "search-status";
    status.setAttribute("role", "status");
    form.append(list, status);
    input.setAttribute("role", "combobox");
    input.setAttribute("aria-autocomplete", "list");
    input.setAttribute("aria-expanded", "false");
    input.setAttribute("aria-controls", list.id);
    input.setAttribute("autocomplete", "off");
    input.setAttribute("aria-keyshortcuts", "Control+K Meta+K /");

    let options: HTMLElement[] = [];
    let active = -1;
    let timer: ReturnType<typeof setTimeout> | undefined;
    let pending: AbortController | undefined;
    let asked = "";

    const setActive = (index: number) => {
      active = index;
      options.forEach((option, i) => option.setAttribute("aria-selected", String(i === index)));
      if (index >= 0) {
        input.setAttribute("aria-activedescendant", options[index].id);
        options[index].scrollIntoView({ block: "nearest" });
      } else input.removeAttribute("aria-activedescendant");
    };
    const close = () => {
      list.hidden = true;
      input.setAttribute("aria-expanded", "false");
      setActive(-1);
    };
    // Options hold no links (an option's children are presentational): a click or Enter opens its URL.
    const option = (id: string, href: string, build: (li: HTMLLIElement) => void): HTMLLIElement => {
      const li = document.createElement("li");
      li.id = id;
      li.setAttribute("role", "option");
      li.setAttribute("aria-selected", "false");
      li.dataset.href = href;
      build(li);
      li.addEventListener("click", () => window.location.assign(href));
      return li;
    };
    const show = (q: string, items: Item[]) => {
      list.replaceChildren();
      options = items.map((item, i) =>
        option(`search-option-${i}`, item.href, (link) => {
          const title = document.createElement("span");
          title.className = "search-title";
          pieces(title, item.title);
          link.appendChild(title);
          const where = [item.space, item.section].filter((s): s is string => typeof s === "string" && !!s);
          if (where.length) {
            const meta = document.createElement("span");
            meta.className = "search-meta";
            meta.textContent = where.join(" › ");
            link.appendChild(meta);
          }
          if (item.snippet?.length) {
            const snippet = document.createElement("span");
            snippet.className = "search-snippet";
            pieces(snippet, item.snippet);
            link.appendChild(snippet);
          }
        }),
      );
      const all = option("search-option-all", `${action}?q=${encodeURIComponent(q)}`, (link) => {
        link.classList.add("search-all");
        link.textContent = items.length ? `See all results for “${q}”` : `No pages match “${q}”. Open the search page`;
      });
      options.push(all);
      list.append(...options);
      list.hidden = false;
      input.setAttribute("aria-expanded", "true");
      status.textContent = items.length ? `${items.length} result${items.length === 1 ? "" : "s"}` : "No results";
      setActive(-1);
    };
    const ask = (q: string) => {
      pending?.abort();
      if (!q) {
        asked = "";
        close();
        status.textContent = "";
        return;
      }
      if (q === asked && !list.hidden) return;
      asked = q;
      const controller = new AbortController();
      pending = controller;
      fetch(`${endpoint}?q=${encodeURIComponent(q)}`, { credentials: "same-origin", headers: { Accept: "application/json" }, signal: controller.signal })
        .then(async (res) => {
          if (!res.ok) throw new Error(String(res.status));
          const body = (await res.json()) as { items?: Item[] };
          if (pending === controller) show(q, Array.isArray(body.items) ? body.items : []);
        })
        .catch(() => {
          if (controller.signal.aborted || pending !== controller) return;
          // Refused or failed (a rate limit, the network): the search page is still one Enter away.
          asked = "";
          close();
          status.textContent = "Press Enter to open the search page";
        });
    };

    input.addEventListener("input", () => {
      if (timer) clearTimeout(timer);
      timer = setTimeout(() => ask(input.value.trim().slice(0, 512)), 150);
    });
    input.addEventListener("focus", () => {
      if (input.value.trim() && options.length && asked === input.value.trim()) {
        list.hidden = false;
        input.setAttribute("aria-expanded", "true");
      }
    });
    input.addEventListener("keydown", (event) => {
      const open = !list.hidden && options.length > 0;
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        if (!open) {
          if (input.value.trim()) ask(input.value.trim().slice(0, 512));
          return;
        }
        event.preventDefault();
        const step = event.key === "ArrowDown" ? 1 : -1;
        setActive(active < 0 ? (step > 0 ? 0 : options.length - 1) : (active + step + options.length) % options.length);
      } else if (event.key === "Enter" && open && active >= 0) {
        event.preventDefault();
        const href = options[active].dataset.href;
        if (href) window.location.assign(href);
      } else if (event.key === "Escape") {
        if (open) {
          event.preventDefault();
          close();
        } else if (input.value) {
          input.value = "";
          ask("");
        } else input.blur();
      }
    });
    // A click on a result is a link's; keep the box's focus until it lands.
    list.addEventListener("mousedown", (event) => event.preventDefault());
    document.addEventListener("click", (event) => {
      if (!form.contains(event.target as Node)) close();
    });
    input.addEventListener("blur", () => setTimeout(() => document.activeElement !== input && close(), 0));
    document.addEventListener("keydown", (event) => {
      const target = event.target as HTMLElement | null;
      const typing = !!target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName));
      if ((event.key === "k" || event.key === "K") && (event.metaKey || event.ctrlKey) && !event.altKey) {
        event.preventDefault();
        input.focus();
        input.select();
      } else if (event.key === "/" && !typing && !event.metaKey && !event.ctrlKey && !event.altKey) {
        event.preventDefault();
        input.focus();
        input.select();
      }
    });
  }

  const ready = () => {
    syncPictures();
    themeToggle();
    tabs();
    copyButtons();
    searchBox();
  };
  if (document.readyState === "loading") document.addEventListener("DOMContentLoaded", ready);
  else ready();
})();
