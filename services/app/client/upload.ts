// Images pasted or dropped into the editor: uploaded into the change request's files (the app's upload
// form, answered in JSON), then inserted as an image block referencing the file (`{kind: "file"}`),
// where the paste happened or where the drop landed. At most one file a paste; images only.
import { Plugin } from "prosemirror-state";
import type { EditorView } from "prosemirror-view";
import { schema } from "./schema";

export interface UploadOptions {
  /** The change request's files address (`…/changes/{n}/~files`). */
  url: string;
  csrf: string;
  /** Says what is happening (the save status line). */
  say(message: string): void;
}

async function upload(options: UploadOptions, file: File): Promise<{ id: string; name: string }> {
  const body = new FormData();
  body.append("_csrf", options.csrf);
  body.append("intent", "upload");
  body.append("reply", "json");
  body.append("file", file, file.name || "pasted-image.png");
  const res = await fetch(options.url, { method: "POST", body, credentials: "same-origin", headers: { Accept: "application/json" } });
  const answer = (await res.json().catch(() => ({}))) as { file?: { id: string; name: string }; error?: string };
  if (!res.ok || !answer.file) throw new Error(answer.error ?? `status ${res.status}`);
  return answer.file;
}

function imageOf(files: FileList | undefined | null): File | undefined {
  return [...(files ?? [])].find((f) => /^image\/(png|jpeg|gif|webp|svg\+xml)$/.test(f.type));
}

function insertAt(view: EditorView, pos: number, file: { id: string; name: string }): void {
  const image = schema.nodes.image.create({ data: { ref: { kind: "file", file: file.id }, alt: file.name }, isVoid: true, fragments: [] });
  const images = schema.nodes.images.create({ data: {}, isVoid: false }, image);
  const $pos = view.state.doc.resolve(Math.min(pos, view.state.doc.content.size));
  // Between blocks: after the top-level block the position is in.
  const at = $pos.depth === 0 ? $pos.pos : $pos.after(1);
  view.dispatch(view.state.tr.insert(at, images).scrollIntoView());
}

export function imageUploads(options: UploadOptions): Plugin {
  const start = (view: EditorView, file: File, pos: number) => {
    options.say(`Uploading ${file.name || "the image"}…`);
    upload(options, file).then(
      (saved) => insertAt(view, pos, saved),
      (err: unknown) => options.say(`The image was not uploaded (${err instanceof Error ? err.message : String(err)})`),
    );
  };
  return new Plugin({
    props: {
      handlePaste(view, event) {
        const file = imageOf(event.clipboardData?.files);
        if (!file) return false;
        start(view, file, view.state.selection.from);
        return true;
      },
      handleDrop(view, event) {
        const file = imageOf((event as DragEvent).dataTransfer?.files);
        if (!file) return false;
        const at = view.posAtCoords({ left: event.clientX, top: event.clientY });
        start(view, file, at?.pos ?? view.state.selection.from);
        return true;
      },
    },
  });
}
