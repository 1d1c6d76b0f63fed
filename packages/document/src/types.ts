// GitBook's JSON document (`JSONDocument` in @gitbook/api's OpenAPI), the part this project reads and
// writes. Kept here as plain types so the package has no runtime dependency on GitBook's client.

export type MarkType = "bold" | "italic" | "strikethrough" | "code";
export interface Mark {
  object: "mark";
  type: MarkType;
}
export interface Leaf {
  object: "leaf";
  text: string;
  marks: Mark[];
}
export interface Text {
  object: "text";
  leaves: Leaf[];
}

export type ContentRef =
  | { kind: "url"; url: string }
  | { kind: "file"; file: string; space?: string }
  | { kind: "page"; page: string; space?: string }
  | { kind: "anchor"; anchor: string; page?: string; space?: string }
  | { kind: "reusable-content"; reusableContent: string; space?: string }
  | { kind: "space"; space: string };
/** GitBook's Length: pixels, or a value with a unit. */
export type Length = number | { unit: string; value: number };
export type ImageRef = Extract<ContentRef, { kind: "url" } | { kind: "file" }>;

export interface InlineLink {
  object: "inline";
  type: "link";
  data: { ref: ContentRef };
  nodes: (Text | InlineImage)[];
}
export interface InlineImage {
  object: "inline";
  type: "inline-image";
  data: { ref: ImageRef; alt?: string };
  isVoid: true;
}
export interface InlineMath {
  object: "inline";
  type: "inline-math";
  data: { formula: string };
  isVoid: true;
}
export type Inline = InlineLink | InlineImage | InlineMath;
export type InlineNode = Text | Inline;

interface BlockBase {
  object: "block";
  key?: string;
}
export interface Paragraph extends BlockBase {
  type: "paragraph";
  nodes: InlineNode[];
  data?: Record<string, never>;
}
export interface Heading extends BlockBase {
  type: "heading-1" | "heading-2" | "heading-3";
  nodes: InlineNode[];
  data: { id?: string };
}
export interface ListItem extends BlockBase {
  type: "list-item";
  nodes: Block[];
  data?: { checked?: boolean };
}
export interface ListOrdered extends BlockBase {
  type: "list-ordered";
  data: { start?: number };
  nodes: ListItem[];
}
export interface ListUnordered extends BlockBase {
  type: "list-unordered" | "list-tasks";
  data?: Record<string, never>;
  nodes: ListItem[];
}
export interface Divider extends BlockBase {
  type: "divider";
  data: Record<string, never>;
  isVoid: true;
}
export interface Quote extends BlockBase {
  type: "blockquote";
  nodes: Block[];
  data?: Record<string, never>;
}
export type HintStyle = "info" | "warning" | "danger" | "success";
export interface Hint extends BlockBase {
  type: "hint";
  data: { style: HintStyle };
  nodes: Block[];
}
export interface CodeLine extends BlockBase {
  type: "code-line";
  data: Record<string, never>;
  nodes: Text[];
}
export interface Code extends BlockBase {
  type: "code";
  data: { syntax?: string; title?: string; overflow?: "scroll" | "wrap"; lineNumbers?: boolean };
  nodes: CodeLine[];
}
export interface Fragment {
  object: "fragment";
  fragment: string;
  type?: string;
  nodes: Block[];
}
export interface Image extends BlockBase {
  type: "image";
  /** GitBook's DocumentBlockImage: `refDark` the dark-mode variant, `width` in pixels or `{unit: "%", value}`. */
  data: { ref: ImageRef; refDark?: ImageRef; alt?: string; width?: Length };
  fragments: Fragment[];
  isVoid: true;
}
export interface Images extends BlockBase {
  type: "images";
  data: { align?: "center" | "left" | "right" };
  nodes: Image[];
  isVoid: false;
}
export interface FileBlock extends BlockBase {
  type: "file";
  data: { ref: Extract<ContentRef, { kind: "file" }> };
  isVoid: true;
}
export interface Embed extends BlockBase {
  type: "embed";
  data: { url: string };
  isVoid: true;
}
export interface MathBlock extends BlockBase {
  type: "math";
  data: { formula: string };
  isVoid: true;
}
export interface Expandable extends BlockBase {
  type: "expandable";
  data: Record<string, never>;
  fragments: Fragment[];
  isVoid: true;
}
export interface TabsItem extends BlockBase {
  type: "tabs-item";
  data: { title?: string };
  nodes: Block[];
}
export interface Tabs extends BlockBase {
  type: "tabs";
  nodes: TabsItem[];
  data?: Record<string, never>;
}
export interface StepperStep extends BlockBase {
  type: "stepper-step";
  data: Record<string, never>;
  nodes: Block[];
}
export interface Stepper extends BlockBase {
  type: "stepper";
  nodes: StepperStep[];
  data?: Record<string, never>;
}
export interface ContentRefBlock extends BlockBase {
  type: "content-ref";
  data: { ref: ContentRef };
  isVoid: true;
}
export interface ReusableContent extends BlockBase {
  type: "reusable-content";
  data: { ref: Extract<ContentRef, { kind: "reusable-content" }> };
  isVoid: true;
}
export type Alignment = "left" | "center" | "right";
export interface Table extends BlockBase {
  type: "table";
  isVoid: true;
  data: {
    view: { type: "grid"; columns: string[]; hideHeader: boolean };
    records: Record<string, { orderIndex: string; values: Record<string, string> }>;
    definition: Record<string, { id: string; title: string; type: "text"; textAlignment: Alignment }>;
  };
  fragments: Fragment[];
}

export type Block =
  | Paragraph
  | Heading
  | ListItem
  | ListOrdered
  | ListUnordered
  | Divider
  | Quote
  | Hint
  | Code
  | CodeLine
  | Image
  | Images
  | FileBlock
  | Embed
  | MathBlock
  | Expandable
  | Tabs
  | TabsItem
  | Stepper
  | StepperStep
  | ContentRefBlock
  | ReusableContent
  | Table;

export interface JSONDocument {
  object: "document";
  data: { schemaVersion?: number };
  nodes: Block[];
}

/** Where a Markdown link or source points, and back: the caller knows its pages and files. */
export interface RefResolver {
  /** `href` of a link (`link`), image source (`image`), `{% file src %}` (`file`) or `{% include %}` path (`include`). */
  toRef?(href: string, use: "link" | "image" | "file" | "include"): ContentRef | undefined;
  /** The Markdown target of a reference; undefined falls back to the reference's own id. */
  toHref?(ref: ContentRef): string | undefined;
}

/** A paragraph kept verbatim: Markdown the model has no block for. Its key starts with this prefix. */
export const RAW_KEY_PREFIX = "raw-";
