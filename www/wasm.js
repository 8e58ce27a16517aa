// The page's WebAssembly, fetched and compiled once. The build packs it with LZMA
// (`kernel_playground_bg.wasm.lzma`): 27 % fewer bytes than the server's gzip of the module,
// which on a phone's line is a second sooner. A small module of its own
// (`kernel_playground_unpack.wasm`, the crate in unpack/) unpacks it as it downloads, and each
// unpacked piece goes on to the browser's compiler (`WebAssembly.compileStreaming`); the whole
// is checked against the size and CRC-32 the build writes into the page
// (`<meta name="kp-wasm-packed">`). The module itself is fetched instead on a line the browser
// estimates at 8 Mbit/s or more (index.html's script chooses, and preloads what it chose), from
// the service worker's cache, which keeps it whole (sw.js), without a packed module, or when
// anything about it fails: compiled while it downloads when the server says it is
// `application/wasm`, else from its bytes once they are all there. The compiled
// `WebAssembly.Module` then serves twice: the page instantiates it (main.js), and the worker
// behind the page is handed the same module (watch.js), so neither fetches nor compiles it
// again. While it downloads, the share of it that has arrived is told to the first caller (the
// page's "Loading the lab… 40%").

const url = new URL('./pkg/kernel_playground_bg.wasm', import.meta.url);
const packedUrl = new URL('./pkg/kernel_playground_bg.wasm.lzma', import.meta.url);
const unpackUrl = new URL('./pkg/kernel_playground_unpack.wasm', import.meta.url);
let compiled = null;

// The compiled module (one promise for every caller); rejects when it cannot be fetched or
// compiled. `onShare(share)`, from 0 to 1, hears how much of it has arrived.
export function compileWasm(onShare = null) {
  if (!compiled) compiled = compile(onShare);
  return compiled;
}

const meta = (name) => document.querySelector(`meta[name="${name}"]`)?.content || '';

async function compile(onShare) {
  const bytes = Number(meta('kp-wasm-bytes'));
  const [packedBytes, crc] = meta('kp-wasm-packed').split(' ');
  // Packed as index.html's script chose (it preloads the same files).
  const chosen = document.documentElement.dataset.wasm === 'packed';
  if (chosen && bytes > 0 && Number(packedBytes) > 0 && /^[0-9a-f]{8}$/.test(crc) && typeof ReadableStream === 'function') {
    try {
      return await compilePacked(bytes, Number(packedBytes), parseInt(crc, 16), onShare);
    } catch (e) {
      console.warn('The packed module failed; loading it unpacked:', e);
    }
  }
  const response = await fetch(url);
  if (!response.ok) throw new Error(`${response.status} ${response.statusText} for ${url.pathname}`);
  if (onShare) countShare(response, bytes, onShare);
  const type = (response.headers.get('Content-Type') || '').split(';')[0].trim();
  if (WebAssembly.compileStreaming && type === 'application/wasm') return WebAssembly.compileStreaming(response);
  return WebAssembly.compile(await response.arrayBuffer());
}

// The packed module, unpacked as it arrives and handed on to the compiler a piece at a time.
// On any failure the packed download is cancelled, so that it does not share the line with the
// whole module fetched instead.
async function compilePacked(bytes, packedBytes, crc, onShare) {
  const packed = fetch(packedUrl);
  const dropPacked = () => packed.then((r) => r.body && r.body.cancel()).catch(() => {});
  let unpacker;
  try {
    unpacker = await instantiate(unpackUrl);
  } catch (e) {
    dropPacked();
    throw e;
  }
  const response = await packed;
  if (!response.ok || !response.body) {
    dropPacked();
    throw new Error(`${response.status} ${response.statusText} for ${packedUrl.pathname}`);
  }
  const { memory, begin, decode, output, checksum } = unpacker.exports;
  const reader = response.body.getReader();
  const input = begin(packedBytes, bytes);
  let arrived = 0;
  let written = 0;
  const unpacked = new ReadableStream({
    async pull(controller) {
      try {
        await unpackMore(controller);
      } catch (e) {
        reader.cancel(e).catch(() => {});
        throw e;
      }
    },
    cancel() {
      reader.cancel().catch(() => {});
    },
  });
  // Reads until there is something to hand on (or the end, checked).
  async function unpackMore(controller) {
    for (;;) {
      const { done, value } = await reader.read();
      if (!done) {
        if (arrived + value.byteLength > packedBytes) throw new Error('the packed module is longer than the page says');
        // (A view made now: the unpacker's memory may have grown, which detaches older ones.)
        new Uint8Array(memory.buffer, input + arrived, value.byteLength).set(value);
        arrived += value.byteLength;
        if (onShare) onShare(arrived / packedBytes);
      }
      const now = decode(arrived, done ? 1 : 0);
      if (now < 0) throw new Error('the packed module is damaged');
      if (now > written) controller.enqueue(new Uint8Array(memory.buffer, output() + written, now - written).slice());
      const more = now > written;
      written = now;
      if (done) {
        if (written !== bytes || checksum() >>> 0 !== crc) throw new Error(`the unpacked module is not the build's (${written} bytes)`);
        controller.close();
        return;
      }
      if (more) return;
    }
  }
  const wasm = new Response(unpacked, { headers: { 'Content-Type': 'application/wasm' } });
  if (WebAssembly.compileStreaming) return WebAssembly.compileStreaming(wasm);
  return WebAssembly.compile(await wasm.arrayBuffer());
}

// A small module with no imports, compiled while it downloads where the server allows.
async function instantiate(where) {
  const response = await fetch(where);
  if (!response.ok) throw new Error(`${response.status} ${response.statusText} for ${where.pathname}`);
  const type = (response.headers.get('Content-Type') || '').split(';')[0].trim();
  if (WebAssembly.instantiateStreaming && type === 'application/wasm') return (await WebAssembly.instantiateStreaming(response)).instance;
  return (await WebAssembly.instantiate(await response.arrayBuffer())).instance;
}

// Counts the response's bytes as they arrive, on a copy of its body, against the module's size
// that the build writes into the page (`<meta name="kp-wasm-bytes">`: the server's length is
// of the compressed bytes, the body's of the module). The response itself goes on to the
// compiler untouched: a body passed through a script reaches it only as fast as the page's
// thread hands it on (0.1 s later on this machine, measured).
function countShare(response, total, onShare) {
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
