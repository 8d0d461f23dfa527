// How the page starts the app, in place of Leptos's HydrationScripts (whose
// preload links and module it otherwise mirrors): the module imported, the
// WASM compiled while it streams in, then instantiated and the page hydrated.
// Instantiating the 1.7 MB module and hydrating each hold the page's only
// thread for a few hundred milliseconds on a phone. When the panel's script
// (agent_panel/early.js) has sent a message before the app was there, its
// reply is on the screen first (a few seconds at most, then the app starts):
// the student's answer before the app. A failure to load rejects unhandled,
// which load_failure.js reports in the panel.
((js, wasm) => {
  const compiled = WebAssembly.compileStreaming
    ? WebAssembly.compileStreaming(fetch(wasm))
    : fetch(wasm).then((r) => r.arrayBuffer()).then((bytes) => WebAssembly.compile(bytes));
  // The reply shown and painted (a frame, then a task), or the wait over.
  const answered = () => {
    const turn = window.__earlyTurn;
    if (!turn) return Promise.resolve();
    const shown = turn.reply.then(
      () => new Promise((done) => requestAnimationFrame(() => setTimeout(done))),
      () => {},
    );
    return Promise.race([shown, new Promise((done) => setTimeout(done, HOLD_MS))]);
  };
  import(js)
    .then((mod) => compiled.then((module) => answered().then(() => mod.default({ module_or_path: module }))).then(() => mod))
    .then((mod) => mod.hydrate());
})(JS_FILE, WASM_FILE);
