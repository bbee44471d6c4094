// The JavaScript engine of code mode: QuickJS compiled to WebAssembly. Its .wasm ships next to the
// bundles in dist/ (esbuild.mjs copies it as quickjs.wasm); from sources and tests it is found in its
// package under node_modules. It is compiled once per process, on first use (so the extension pays
// nothing until a script runs), and instantiated afresh for every run (a few milliseconds).
import * as fs from 'node:fs';
import * as path from 'node:path';
import RELEASE_SYNC from '@jitl/quickjs-wasmfile-release-sync';
import { newQuickJSWASMModuleFromVariant, newVariant } from 'quickjs-emscripten-core';
import type { SandboxEngine } from '../core/code/sandbox';

const BUNDLED_NAME = 'quickjs.wasm';
const PACKAGE = '@jitl/quickjs-wasmfile-release-sync';
const PACKAGE_FILE = path.join('dist', 'emscripten-module.wasm');

// The lib of this project has no DOM (and so no WebAssembly typings): the one function used, typed here.
interface WasmApi {
  compile(bytes: Uint8Array): Promise<object>;
  Memory: new (descriptor: { initial: number; maximum: number }) => { buffer: ArrayBuffer; grow(pages: number): number };
}
const wasm = (globalThis as unknown as { WebAssembly: WasmApi }).WebAssembly;
const PAGE_BYTES = 64 * 1024;
/** The engine's own start size (its build's INITIAL_MEMORY); a bound below it still gets this much. */
const INITIAL_PAGES = 256;
let compiling: Promise<object> | undefined;

/**
 * The engine for code mode: each call is a new instance of the one compiled module, in a memory that
 * cannot grow past `memoryBytes` (the engine's own allocation counter counts allocations, not bytes, in
 * this build; a memory with a maximum bounds every byte, the engine's own included).
 */
export const quickJsEngine: SandboxEngine = async (memoryBytes) => {
  compiling ??= wasm.compile(fs.readFileSync(locate(__dirname))).catch((error: unknown) => {
    compiling = undefined; // a later run may try again
    throw error;
  });
  const wasmModule = await compiling;
  const maximum = Math.max(INITIAL_PAGES, Math.ceil(memoryBytes / PAGE_BYTES));
  const wasmMemory = new wasm.Memory({ initial: INITIAL_PAGES, maximum });
  // The engine grows its memory through this method (from JavaScript): a growth past the maximum is
  // the moment an allocation fails, whatever the script then does with the "out of memory".
  let exhausted = false;
  const grow = wasmMemory.grow.bind(wasmMemory);
  wasmMemory.grow = (pages: number): number => {
    try {
      return grow(pages);
    } catch (error) {
      exhausted = true;
      throw error;
    }
  };
  const module = await newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmModule: wasmModule as never, wasmMemory: wasmMemory as never }));
  return { module, memoryExhausted: () => exhausted };
};

/** quickjs.wasm next to the running code (dist/), or the package's file in a node_modules above it. */
function locate(from: string): string {
  const candidates = [path.join(from, BUNDLED_NAME)];
  for (let dir = from; ; dir = path.dirname(dir)) {
    candidates.push(path.join(dir, 'node_modules', PACKAGE, PACKAGE_FILE));
    if (path.dirname(dir) === dir) break;
  }
  const found = candidates.find((candidate) => fs.existsSync(candidate));
  if (found === undefined) throw new Error(`cannot find the JavaScript engine of code mode (${BUNDLED_NAME}; looked in ${candidates.slice(0, 3).join(', ')}…)`);
  return found;
}
