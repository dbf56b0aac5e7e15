// esbuild entry: the CodeMirror 6 pieces editor.js uses, bundled into assets/rankcards/codemirror.js
// at site build (rankcards.web.write_assets) from the pinned node_modules — never from a CDN.
export { EditorState, Prec } from "@codemirror/state";
export { EditorView, keymap, lineNumbers, highlightActiveLine, drawSelection } from "@codemirror/view";
export { defaultKeymap, history, historyKeymap, indentWithTab } from "@codemirror/commands";
export {
  HighlightStyle,
  bracketMatching,
  indentOnInput,
  syntaxHighlighting,
} from "@codemirror/language";
export { python } from "@codemirror/lang-python";
export { tags } from "@lezer/highlight";
