// The page's WebAssembly, fetched and compiled once. It is compiled while it downloads
// (`WebAssembly.compileStreaming`) when the server says it is `application/wasm`, else from its
// bytes once they are all there. The compiled `WebAssembly.Module` then serves twice: the page
// instantiates it (main.js), and the worker behind the page is handed the same module
// (watch.js), so neither fetches nor compiles it again.

const url = new URL('./pkg/kernel_playground_bg.wasm', import.meta.url);
let compiled = null;

// The compiled module (one promise for every caller); rejects when it cannot be fetched or
// compiled.
export function compileWasm() {
  if (!compiled) compiled = compile();
  return compiled;
}

async function compile() {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${response.status} ${response.statusText} for ${url.pathname}`);
  const type = (response.headers.get('Content-Type') || '').split(';')[0].trim();
  if (WebAssembly.compileStreaming && type === 'application/wasm') return WebAssembly.compileStreaming(response);
  return WebAssembly.compile(await response.arrayBuffer());
}
