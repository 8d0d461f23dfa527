// Makes the site of a build WITHOUT `--split` run, for `make bench-front`'s
// comparison of the split build with one WASM file (README, "Time to the
// first answer"). Not part of `make build`.
//
// The code is the same either way: `#[lazy]`, `#[lazy_route]` and
// `split_fn!` (app/src/split.rs) always compile, in the browser, to calls of
// functions the module imports from `__wasm_split_placeholder__`: for every
// split function an `…_import_…` that `cargo leptos build --split`'s
// wasm-split rewires to the `…_export_…` of the same name in a chunk, and for
// every chunk a `__wasm_split_load_…(callback, data)` that fetches it. Without
// `--split` nothing resolves them: wasm-bindgen leaves
// `import * as … from "__wasm_split_placeholder__"` in the JS glue, which no
// browser can load, and no page hydrates.
//
// This script resolves them inside the glue, where wasm-split's loader would:
// an `…_import_…` calls the module's own `…_export_…`, a load calls its
// callback at once (success: everything is already in the one module). The
// callback is a function of the module's table, which wasm-bindgen does not
// export: the script adds the export (`__indirect_function_table`, as
// wasm-split does) to the WASM. Nothing else changes. After
//   cargo leptos build --release -P
// run `node scripts/one-wasm.mjs [site-root]`: it rewrites the glue and the
// WASM and their .gz (gzip -9, as `make build`) and .br (quality 11) beside
// them.
import { readFileSync, writeFileSync } from 'fs';
import { join } from 'path';
import { execFileSync } from 'child_process';
import { brotliCompressSync, constants } from 'zlib';

const root = process.argv[2] ?? 'target/site';
const pkg = join(root, 'pkg');
const PLACEHOLDER = '__wasm_split_placeholder__';
const wasmFile = join(pkg, 'advisor-review.wasm');
const jsFile = join(pkg, 'advisor-review.js');

let wasm = readFileSync(wasmFile);
const module = new WebAssembly.Module(wasm);
const imports = WebAssembly.Module.imports(module).filter((i) => i.module === PLACEHOLDER);
if (imports.length === 0) {
  console.error(`${wasmFile} imports nothing from ${PLACEHOLDER}: a split build, or already resolved`);
  process.exit(1);
}
const exports = new Set(WebAssembly.Module.exports(module).map((e) => e.name));
if (!exports.has('__indirect_function_table')) wasm = exportFunctionTable(wasm);

// The module with one more export: its (first) table of functions, as
// `__indirect_function_table`. Only the export section changes.
function exportFunctionTable(bytes) {
  const leb = (at) => {
    let value = 0;
    let shift = 0;
    for (;;) {
      const b = bytes[at++];
      value += (b & 0x7f) * 2 ** shift;
      shift += 7;
      if (b < 0x80) return [value, at];
    }
  };
  const uleb = (n) => {
    const out = [];
    do {
      let b = n & 0x7f;
      n = Math.floor(n / 128);
      if (n) b |= 0x80;
      out.push(b);
    } while (n);
    return out;
  };
  const skipName = (at) => {
    const [len, next] = leb(at);
    return next + len;
  };
  let importedTables = 0;
  let table = -1;
  let exportAt = -1;
  let at = 8;
  while (at < bytes.length) {
    const id = bytes[at];
    const [size, body] = leb(at + 1);
    if (id === 2) {
      // Imports: count the tables imported before the module's own.
      let [count, p] = leb(body);
      while (count--) {
        p = skipName(skipName(p));
        const kind = bytes[p++];
        if (kind === 0) [, p] = leb(p);
        else if (kind === 1) {
          importedTables += 1;
          p += 1;
          const flags = bytes[p++];
          [, p] = leb(p);
          if (flags & 1) [, p] = leb(p);
        } else if (kind === 2) {
          const flags = bytes[p++];
          [, p] = leb(p);
          if (flags & 1) [, p] = leb(p);
        } else if (kind === 3) p += 2;
        else throw new Error(`import kind ${kind}`);
      }
    } else if (id === 4) {
      let [count, p] = leb(body);
      for (let i = 0; i < count; i++) {
        const type = bytes[p++];
        if (type === 0x70 && table < 0) table = importedTables + i;
        const flags = bytes[p++];
        [, p] = leb(p);
        if (flags & 1) [, p] = leb(p);
      }
    } else if (id === 7) {
      exportAt = at;
    }
    at = body + size;
  }
  if (table < 0 || exportAt < 0) throw new Error('no function table or no export section');
  const [size, body] = leb(exportAt + 1);
  const [count, entries] = leb(body);
  const name = Buffer.from('__indirect_function_table');
  const content = Buffer.concat([
    Buffer.from(uleb(count + 1)),
    bytes.subarray(entries, body + size),
    Buffer.from(uleb(name.length)),
    name,
    Buffer.from([1, ...uleb(table)]),
  ]);
  return Buffer.concat([
    bytes.subarray(0, exportAt),
    Buffer.from([7, ...uleb(content.length)]),
    content,
    bytes.subarray(body + size),
  ]);
}

let js = readFileSync(jsFile, 'utf8');
// The glue's initSync returns the module's exports once it is instantiated.
const initSync = js.match(/export\s*\{[^}]*?\b([\w$]+) as initSync\b/)?.[1] ??
  (/export function initSync\b/.test(js) ? 'initSync' : null);
if (!initSync) throw new Error('no initSync in the glue');
const importRe = new RegExp(`import\\s*\\*\\s*as\\s*([\\w$]+)\\s*from\\s*["']${PLACEHOLDER}["'];?`, 'g');
const bindings = [...js.matchAll(importRe)].map((m) => m[1]);
if (bindings.length === 0) throw new Error(`no import from ${PLACEHOLDER} in the glue`);

const entries = imports.map(({ name, kind }) => {
  if (kind !== 'function') throw new Error(`${name}: a ${kind}, not a function`);
  if (name.startsWith('__wasm_split_load_')) {
    return `${JSON.stringify(name)}:(c,d)=>{${initSync}(void 0).__indirect_function_table.get(c)(d,1)}`;
  }
  const target = name.replace('_import_', '_export_');
  if (target === name || !exports.has(target)) throw new Error(`${name}: no export ${target}`);
  return `${JSON.stringify(name)}:(...a)=>${initSync}(void 0)[${JSON.stringify(target)}](...a)`;
});
const object = `{__proto__:null,${entries.join(',')}}`;
let first = true;
js = js.replace(importRe, (_, binding) => {
  const line = first ? `const ${binding}=${object};` : `const ${binding}=${bindings[0]};`;
  first = false;
  return line;
});
new WebAssembly.Module(wasm);
for (const [file, data] of [
  [jsFile, Buffer.from(js)],
  [wasmFile, wasm],
]) {
  writeFileSync(file, data);
  // As `make build` does.
  execFileSync('gzip', ['-9', '-n', '-k', '-f', file]);
  writeFileSync(`${file}.br`, brotliCompressSync(data, { params: { [constants.BROTLI_PARAM_QUALITY]: 11 } }));
}
console.log(
  `${jsFile}: ${imports.length} imports of ${PLACEHOLDER} resolved in the module itself ` +
    `(${imports.filter((i) => i.name.startsWith('__wasm_split_load_')).length} loads)`,
);
