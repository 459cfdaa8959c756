// The pages' test hooks: the only names they publish on `window`, for the
// browser tests (bt-studio/tests/browser.rs, editor.rs).

interface Window {
  /** The viewer's hooks (studio.js). */
  btStudio: Record<string, unknown>;
  /** The editor's hooks (editor.js). */
  btEditor: Record<string, unknown>;
}
