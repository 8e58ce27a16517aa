// Draws the lab's icon (two classes of points either side of a curved boundary and its
// margins) once, as shapes, and writes it as www/icons/icon.svg and as the PNGs the web app
// manifest lists (www/icons/icon-192.png, icon-512.png), rasterised here with 4 × 4 samples a
// pixel. The shapes keep inside the central circle a maskable icon must fill (radius 40 of 100).
// Usage: node scripts/icons.mjs   (the outputs are committed; run it after changing a shape).
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { fileURLToPath } from 'node:url';

const out = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../www/icons');

const INK = '#141414';
// The decision boundary, x₂ = f(x₁), on a 100 × 100 canvas whose y grows downwards.
const boundary = (x) => 50 + 12 * Math.sin((x / 100) * 2 * Math.PI);
const curve = (dy) => Array.from({ length: 51 }, (_, i) => [i * 2, boundary(i * 2) + dy]);
const triangle = (cx, cy) => [[cx, cy - 8], [cx + 7, cy + 4.2], [cx - 7, cy + 4.2]];

const SHAPES = [
  { kind: 'polygon', points: [[0, 0], [100, 0], [100, 100], [0, 100]], fill: '#d9e9f4' },
  { kind: 'polygon', points: [[0, 100], ...curve(0), [100, 100]], fill: '#fae5bf' },
  { kind: 'line', points: curve(-9), width: 1.2, stroke: '#5a5a5a' },
  { kind: 'line', points: curve(9), width: 1.2, stroke: '#5a5a5a' },
  { kind: 'line', points: curve(0), width: 3.2, stroke: INK },
  ...[[24, 44], [32, 26], [52, 24]].map(([cx, cy]) => ({ kind: 'circle', cx, cy, r: 6.5, fill: '#0072b2', stroke: INK, width: 2 })),
  ...[[44, 80], [62, 70], [78, 58]].map(([cx, cy]) => ({ kind: 'polygon', points: triangle(cx, cy), fill: '#e69f00', stroke: INK, width: 2 })),
];

// ---- SVG ----------------------------------------------------------------------------------

const num = (v) => String(Math.round(v * 100) / 100);
const pointList = (pts) => pts.map(([x, y]) => `${num(x)},${num(y)}`).join(' ');

function svg() {
  const body = SHAPES.map((s) => {
    const stroke = s.stroke ? ` stroke="${s.stroke}" stroke-width="${s.width}" stroke-linejoin="round"` : '';
    if (s.kind === 'circle') return `<circle cx="${s.cx}" cy="${s.cy}" r="${s.r}" fill="${s.fill}"${stroke}/>`;
    if (s.kind === 'line') return `<polyline points="${pointList(s.points)}" fill="none"${stroke} stroke-linecap="round"/>`;
    return `<polygon points="${pointList(s.points)}" fill="${s.fill}"${stroke}/>`;
  });
  return `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100">\n${body.join('\n')}\n</svg>\n`;
}

// ---- raster -------------------------------------------------------------------------------

function segmentDistance(px, py, [ax, ay], [bx, by]) {
  const dx = bx - ax;
  const dy = by - ay;
  const t = Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / (dx * dx + dy * dy || 1)));
  return Math.hypot(px - ax - t * dx, py - ay - t * dy);
}

function edgeDistance(px, py, pts, closed) {
  let best = Infinity;
  const n = closed ? pts.length : pts.length - 1;
  for (let i = 0; i < n; i += 1) best = Math.min(best, segmentDistance(px, py, pts[i], pts[(i + 1) % pts.length]));
  return best;
}

function inside(px, py, pts) {
  let odd = false;
  for (let i = 0, j = pts.length - 1; i < pts.length; j = i, i += 1) {
    const [xi, yi] = pts[i];
    const [xj, yj] = pts[j];
    if ((yi > py) !== (yj > py) && px < ((xj - xi) * (py - yi)) / (yj - yi) + xi) odd = !odd;
  }
  return odd;
}

// Each shape's bounding box, its stroke included: most samples fall outside most shapes.
const boxes = SHAPES.map((s) => {
  const pts = s.kind === 'circle' ? [[s.cx - s.r, s.cy - s.r], [s.cx + s.r, s.cy + s.r]] : s.points;
  const pad = (s.width || 0) / 2;
  const xs = pts.map((p) => p[0]);
  const ys = pts.map((p) => p[1]);
  return [Math.min(...xs) - pad, Math.max(...xs) + pad, Math.min(...ys) - pad, Math.max(...ys) + pad];
});

// The colour of the topmost shape at (x, y), as SVG paints it.
function colourAt(x, y) {
  let colour = null;
  for (const [i, s] of SHAPES.entries()) {
    const [x0, x1, y0, y1] = boxes[i];
    if (x < x0 || x > x1 || y < y0 || y > y1) continue;
    if (s.kind === 'circle') {
      const d = Math.hypot(x - s.cx, y - s.cy);
      if (s.stroke && Math.abs(d - s.r) <= s.width / 2) colour = s.stroke;
      else if (d < s.r) colour = s.fill;
    } else if (s.kind === 'line') {
      if (edgeDistance(x, y, s.points, false) <= s.width / 2) colour = s.stroke;
    } else if (s.stroke && edgeDistance(x, y, s.points, true) <= s.width / 2) {
      colour = s.stroke;
    } else if (inside(x, y, s.points)) {
      colour = s.fill;
    }
  }
  return colour;
}

const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));

function raster(size) {
  const SAMPLES = 4;
  const rows = [];
  for (let py = 0; py < size; py += 1) {
    const row = Buffer.alloc(1 + 3 * size); // filter byte 0, then RGB
    for (let px = 0; px < size; px += 1) {
      const sum = [0, 0, 0];
      for (let sy = 0; sy < SAMPLES; sy += 1) {
        for (let sx = 0; sx < SAMPLES; sx += 1) {
          const x = ((px + (sx + 0.5) / SAMPLES) / size) * 100;
          const y = ((py + (sy + 0.5) / SAMPLES) / size) * 100;
          const c = rgb(colourAt(x, y));
          for (let k = 0; k < 3; k += 1) sum[k] += c[k];
        }
      }
      for (let k = 0; k < 3; k += 1) row[1 + 3 * px + k] = Math.round(sum[k] / (SAMPLES * SAMPLES));
    }
    rows.push(row);
  }
  return png(size, size, Buffer.concat(rows));
}

// ---- PNG ----------------------------------------------------------------------------------

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k += 1) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});

function crc32(bytes) {
  let c = 0xffffffff;
  for (const b of bytes) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}

function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'ascii');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

// An 8-bit RGB PNG of `scanlines` (each row: filter type 0, then its pixels).
function png(width, height, scanlines) {
  const header = Buffer.alloc(13);
  header.writeUInt32BE(width, 0);
  header.writeUInt32BE(height, 4);
  header.set([8, 2, 0, 0, 0], 8); // bit depth 8, colour type RGB, deflate, no filter, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', header),
    chunk('IDAT', zlib.deflateSync(scanlines, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ]);
}

fs.mkdirSync(out, { recursive: true });
fs.writeFileSync(path.join(out, 'icon.svg'), svg());
for (const size of [192, 512]) fs.writeFileSync(path.join(out, `icon-${size}.png`), raster(size));
console.log(`icons written to ${path.relative(process.cwd(), out) || '.'}`);
