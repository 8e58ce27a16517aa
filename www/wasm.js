// The page's WebAssembly, fetched and compiled once. It is compiled while it downloads
// (`WebAssembly.compileStreaming`) when the server says it is `application/wasm`, else from its
// bytes once they are all there. The compiled `WebAssembly.Module` then serves twice: the page
// instantiates it (main.js), and the worker behind the page is handed the same module
// (watch.js), so neither fetches nor compiles it again. While it downloads, the share of it
// that has arrived is told to the first caller (the page's "Loading the lab… 40%").

const url = new URL('./pkg/kernel_playground_bg.wasm', import.meta.url);
let compiled = null;

// The compiled module (one promise for every caller); rejects when it cannot be fetched or
// compiled. `onShare(share)`, from 0 to 1, hears how much of it has arrived.
export function compileWasm(onShare = null) {
  if (!compiled) compiled = compile(onShare);
  return compiled;
}

async function compile(onShare) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${response.status} ${response.statusText} for ${url.pathname}`);
  if (onShare) countShare(response, onShare);
  const type = (response.headers.get('Content-Type') || '').split(';')[0].trim();
  if (WebAssembly.compileStreaming && type === 'application/wasm') return WebAssembly.compileStreaming(response);
  return WebAssembly.compile(await response.arrayBuffer());
}

// Counts the response's bytes as they arrive, on a copy of its body, against the module's size
// that the build writes into the page (`<meta name="kp-wasm-bytes">`: the server's length is
// of the compressed bytes, the body's of the module). The response itself goes on to the
// compiler untouched: a body passed through a script reaches it only as fast as the page's
// thread hands it on (0.1 s later on this machine, measured).
function countShare(response, onShare) {
  const total = Number(document.querySelector('meta[name="kp-wasm-bytes"]')?.content);
  if (!(total > 0) || !response.body) return;
  const reader = response.clone().body.getReader();
  (async () => {
    for (let arrived = 0; ;) {
      const { done, value } = await reader.read();
      if (done) return;
      arrived += value.byteLength;
      onShare(Math.min(1, arrived / total));
    }
  })().catch(() => {}); // (a failed download is the compiler's to report)
}
