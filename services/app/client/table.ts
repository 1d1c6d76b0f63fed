// Tables edited in place, with prosemirror-tables (the ProseMirror project's own table module: cell selection,
// rows and columns added and removed, Tab from cell to cell, and every table kept rectangular after any edit,
// a collaborator's included). GitBook's table adds one rule: its first row is the columns' titles, so no row
// goes above it and it is never deleted (a column goes with its title).
import { addColumnAfter, addColumnBefore, addRowAfter, addRowBefore, deleteColumn, deleteRow, goToNextCell, isInTable, selectedRect, tableEditing } from "prosemirror-tables";
import { Plugin, type Command, type EditorState, type Transaction } from "prosemirror-state";
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
}

/** What the block bar offers in a table (a command answers false where it cannot run: the button is disabled). */
export const TABLE_ACTIONS: TableAction[] = [
  { id: "row-above", label: "Row above", run: unlessTitleRow(addRowBefore) },
  { id: "row-below", label: "Row below", run: addRowAfter },
  { id: "row-delete", label: "Delete row", run: unlessTitleRow(deleteRow) },
  { id: "column-left", label: "Column left", run: addColumnBefore },
  { id: "column-right", label: "Column right", run: addColumnAfter },
  { id: "column-delete", label: "Delete column", run: notEveryColumn(deleteColumn) },
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
  ];
}
