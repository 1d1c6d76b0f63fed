// Tables edited in place, with prosemirror-tables (the ProseMirror project's own table module: cell selection,
// rows and columns added and removed, Tab from cell to cell, and every table kept rectangular after any edit,
// a collaborator's included). GitBook's table adds one rule: its first row is the columns' titles, so no row
// goes above it and it is never deleted (a column goes with its title).
import { addColumnAfter, addColumnBefore, addRowAfter, addRowBefore, deleteColumn, deleteRow, goToNextCell, isInTable, selectedRect, tableEditing } from "prosemirror-tables";
import type { Node as PMNode } from "prosemirror-model";
import { Plugin, type Command, type EditorState, type Transaction } from "prosemirror-state";
import { Decoration, DecorationSet } from "prosemirror-view";
import { ySyncPluginKey } from "y-prosemirror";

/** Whether the selection touches the table's first row (its columns' titles). */
export function inTitleRow(state: EditorState): boolean {
  return isInTable(state) && selectedRect(state).top === 0;
}

const unlessTitleRow =
  (command: Command): Command =>
  (state, dispatch, view) =>
    !inTitleRow(state) && command(state, dispatch, view);

/** prosemirror-tables' deleteColumn answers true for the table's every column when only asked (it refuses once dispatched). */
const notEveryColumn =
  (command: Command): Command =>
  (state, dispatch, view) => {
    if (!isInTable(state)) return false;
    const rect = selectedRect(state);
    return !(rect.left === 0 && rect.right === rect.map.width) && command(state, dispatch, view);
  };

export interface TableAction {
  id: string;
  label: string;
  run: Command;
  /** For a toggle: whether it is on where the selection is (the button's `aria-pressed`). */
  pressed?(state: EditorState): boolean;
}

export type Alignment = "left" | "center" | "right";
export const ALIGNMENTS: Alignment[] = ["left", "center", "right"];

/** A column's text alignment: GitBook's `definition[column].textAlignment`, kept on the column's title cell (`column` attribute). */
export function alignmentOf(header: PMNode | null | undefined): Alignment {
  const value = (header?.attrs.column as { textAlignment?: unknown } | null | undefined)?.textAlignment;
  return value === "center" || value === "right" ? value : "left";
}

/** The title cells (first row) of the columns the selection covers, with their positions. */
function selectedTitles(state: EditorState): Array<{ pos: number; node: PMNode }> {
  if (!isInTable(state)) return [];
  const rect = selectedRect(state);
  const out: Array<{ pos: number; node: PMNode }> = [];
  for (let col = rect.left; col < rect.right; col++) {
    const pos = rect.tableStart + rect.map.map[col];
    const node = state.doc.nodeAt(pos);
    if (node && !out.some((o) => o.pos === pos)) out.push({ pos, node });
  }
  return out;
}

/** Sets the text alignment of the columns the selection is in (their cells, titles included). */
export function alignColumn(alignment: Alignment): Command {
  return (state, dispatch) => {
    const titles = selectedTitles(state);
    if (!titles.length) return false;
    if (dispatch) {
      const tr = state.tr;
      for (const { pos, node } of titles) {
        const column = { type: "text", ...((node.attrs.column as Record<string, unknown> | null) ?? {}), textAlignment: alignment };
        tr.setNodeMarkup(pos, undefined, { ...node.attrs, column });
      }
      dispatch(tr);
    }
    return true;
  };
}

/** Whether every column the selection is in has this alignment. */
export function isAligned(state: EditorState, alignment: Alignment): boolean {
  const titles = selectedTitles(state);
  return titles.length > 0 && titles.every(({ node }) => alignmentOf(node) === alignment);
}

/** Each cell of a centred or right-aligned column carries the class `align-center` / `align-right` (the page's CSP applies no style attribute). */
function alignmentDecorations(doc: PMNode): DecorationSet {
  const decorations: Decoration[] = [];
  doc.descendants((node, pos) => {
    if (node.type.spec.tableRole !== "table") return node.isBlock && !node.isTextblock;
    const aligned = node.firstChild ? Array.from({ length: node.firstChild.childCount }, (_, c) => alignmentOf(node.firstChild!.child(c))) : [];
    if (aligned.every((a) => a === "left")) return false;
    node.forEach((row, rowOffset) => {
      row.forEach((cell, cellOffset, c) => {
        const a = aligned[c];
        if (a && a !== "left") {
          const from = pos + 1 + rowOffset + 1 + cellOffset;
          decorations.push(Decoration.node(from, from + cell.nodeSize, { class: `align-${a}` }));
        }
      });
    });
    return false;
  });
  return DecorationSet.create(doc, decorations);
}

/** What the block bar offers in a table (a command answers false where it cannot run: the button is disabled). */
export const TABLE_ACTIONS: TableAction[] = [
  { id: "row-above", label: "Row above", run: unlessTitleRow(addRowBefore) },
  { id: "row-below", label: "Row below", run: addRowAfter },
  { id: "row-delete", label: "Delete row", run: unlessTitleRow(deleteRow) },
  { id: "column-left", label: "Column left", run: addColumnBefore },
  { id: "column-right", label: "Column right", run: addColumnAfter },
  { id: "column-delete", label: "Delete column", run: notEveryColumn(deleteColumn) },
  ...ALIGNMENTS.map((a): TableAction => ({ id: `align-${a}`, label: `Align ${a}`, run: alignColumn(a), pressed: (state) => isAligned(state, a) })),
];

/** Tab and Shift-Tab move to the next and previous cell (past the last cell, Tab leaves the table as elsewhere). */
export const nextCell: Command = goToNextCell(1);
export const previousCell: Command = goToNextCell(-1);

/** A transaction that brings a collaborator's edit (or live editing's undo) from the shared document. */
const fromShared = (tr: Transaction): boolean => (tr.getMeta(ySyncPluginKey) as { isChangeOrigin?: boolean } | undefined)?.isChangeOrigin === true;

/**
 * prosemirror-tables' editing plugin, but a table made uneven by a collaborator's edit (a row one added while
 * another added a column) is evened by the next edit made here, not by every editor at once on receiving it:
 * each would add the missing cells, and the shared document would get them as many times (prosemirror-tables
 * issue 249: two people adding columns and rows fast grow a table without end; issue 12: skip the fixing for a
 * remote edit). An uneven table is saved as it is meanwhile (convert.ts reads the cells it has).
 */
export function tablePlugins(): Plugin[] {
  const editing = tableEditing();
  const { appendTransaction, ...spec } = editing.spec;
  return [
    new Plugin({
      ...spec,
      appendTransaction: (trs, oldState, state) => (trs.every(fromShared) ? null : (appendTransaction?.call(editing, trs, oldState, state) ?? null)),
    }),
    new Plugin<DecorationSet>({
      state: {
        init: (_, state) => alignmentDecorations(state.doc),
        apply: (tr, set) => (tr.docChanged ? alignmentDecorations(tr.doc) : set),
      },
      props: {
        decorations(state) {
          return this.getState(state);
        },
      },
    }),
  ];
}
