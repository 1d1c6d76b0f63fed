// The customization a site and each site space have until customization settings are stored: GitBook's defaults.
export interface Customization {
  title?: string;
  styling: Record<string, unknown>;
  internationalization: { locale: string };
  favicon: Record<string, never>;
  header: { preset: string; links: unknown[] };
  footer: { groups: unknown[] };
  themes: { default: "light" | "dark"; toggeable: boolean };
  pdf: { enabled: boolean };
  feedback: { enabled: boolean };
  ai: { mode: string };
  advancedCustomization: { enabled: boolean };
  trademark: { enabled: boolean };
  externalLinks: { target: string };
  pagination: { enabled: boolean };
  pageActions: { externalAI: boolean; markdown: boolean; mcp: boolean };
  git: { showEditLink: boolean };
  privacyPolicy: Record<string, never>;
  socialPreview: Record<string, never>;
  insights: { trackingCookie: boolean };
}

const color = (light: string, dark: string) => ({ light, dark });

export function defaultCustomization(title?: string): Customization {
  const customization: Customization = {
    styling: {
      theme: "clean",
      primaryColor: color("#346DDB", "#346DDB"),
      infoColor: color("#787878", "#787878"),
      successColor: color("#00C950", "#00C950"),
      warningColor: color("#FE9A00", "#FE9A00"),
      dangerColor: color("#FB2C36", "#FB2C36"),
      corners: "rounded",
      depth: "subtle",
      links: "default",
      font: "Inter",
      monospaceFont: "IBMPlexMono",
      background: "plain",
      icons: "regular",
      sidebar: { background: "default", list: "default" },
      search: "subtle",
    },
    internationalization: { locale: "en" },
    favicon: {},
    header: { preset: "default", links: [] },
    footer: { groups: [] },
    themes: { default: "light", toggeable: true },
    pdf: { enabled: true },
    feedback: { enabled: false },
    ai: { mode: "search" },
    advancedCustomization: { enabled: true },
    trademark: { enabled: true },
    externalLinks: { target: "self" },
    pagination: { enabled: true },
    pageActions: { externalAI: true, markdown: true, mcp: true },
    git: { showEditLink: false },
    privacyPolicy: {},
    socialPreview: {},
    insights: { trackingCookie: true },
  };
  if (title && title.length >= 2) customization.title = title;
  return customization;
}
