#!/usr/bin/env node
/**
 * Draws Spillway's icons as PNGs with nothing but zlib: a teal rounded square with three white
 * "overflow" waves, plus tray icons (coloured for Linux/Windows, a black-and-alpha template for
 * the macOS menu bar). Deterministic: the same script writes the same bytes, so the committed
 * files can be checked with `node build/icons.mjs --check`.
 */
import { deflateSync } from "node:zlib";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

const BUILD = dirname(fileURLToPath(import.meta.url));

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n;
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1;
  return c >>> 0;
});
function crc32(buf) {
  let c = 0xffffffff;
  for (const b of buf) c = CRC_TABLE[(c ^ b) & 0xff] ^ (c >>> 8);
  return (c ^ 0xffffffff) >>> 0;
}
function chunk(type, data) {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, "ascii");
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** Encodes RGBA pixels (Uint8Array, row-major) as a PNG. */
export function encodePng(width, height, rgba) {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr.set([8, 6, 0, 0, 0], 8); // 8-bit RGBA, no interlace
  const raw = Buffer.alloc((width * 4 + 1) * height);
  for (let y = 0; y < height; y++) {
    raw[y * (width * 4 + 1)] = 0; // filter: none
    raw.set(rgba.subarray(y * width * 4, (y + 1) * width * 4), y * (width * 4 + 1) + 1);
  }
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([signature, chunk("IHDR", ihdr), chunk("IDAT", deflateSync(raw, { level: 9 })), chunk("IEND", Buffer.alloc(0))]);
}

function insideRoundedSquare(x, y, inset, radius) {
  const lo = inset,
    hi = 1 - inset;
  if (x < lo || x > hi || y < lo || y > hi) return false;
  const cx = Math.min(Math.max(x, lo + radius), hi - radius);
  const cy = Math.min(Math.max(y, lo + radius), hi - radius);
  return (x - cx) ** 2 + (y - cy) ** 2 <= radius ** 2;
}

/** Three waves, the lowest widest: water spilling over a weir. */
function onWave(x, y, weight) {
  const waves = [
    { y: 0.34, from: 0.3, to: 0.7 },
    { y: 0.5, from: 0.24, to: 0.76 },
    { y: 0.66, from: 0.18, to: 0.82 },
  ];
  return waves.some((w) => x >= w.from && x <= w.to && Math.abs(y - (w.y + 0.035 * Math.sin((x - w.from) * Math.PI * 4))) <= weight);
}

/** The colour of one sample point, [r, g, b, a] in 0..255. */
function sampleIcon(x, y, { tray }) {
  const inset = tray ? 0.02 : 0.06;
  if (!insideRoundedSquare(x, y, inset, tray ? 0.2 : 0.2)) return [0, 0, 0, 0];
  if (onWave(x, y, tray ? 0.065 : 0.045)) return [255, 255, 255, 255];
  const t = (y - inset) / (1 - 2 * inset);
  return [Math.round(20 + (15 - 20) * t), Math.round(184 + (118 - 184) * t), Math.round(166 + (110 - 166) * t), 255];
}

function sampleTemplate(x, y) {
  return onWave(x, y, 0.07) ? [0, 0, 0, 255] : [0, 0, 0, 0];
}

/** Renders with 4×4 supersampling so small sizes stay smooth. */
function render(size, sample) {
  const px = new Uint8Array(size * size * 4);
  const n = 4;
  for (let y = 0; y < size; y++) {
    for (let x = 0; x < size; x++) {
      const acc = [0, 0, 0, 0];
      for (let sy = 0; sy < n; sy++) {
        for (let sx = 0; sx < n; sx++) {
          const c = sample((x + (sx + 0.5) / n) / size, (y + (sy + 0.5) / n) / size);
          // Premultiply so edges blend towards transparent, not towards black.
          acc[0] += c[0] * c[3];
          acc[1] += c[1] * c[3];
          acc[2] += c[2] * c[3];
          acc[3] += c[3];
        }
      }
      const a = acc[3] / (n * n);
      const o = (y * size + x) * 4;
      px[o] = a ? Math.round(acc[0] / acc[3]) : 0;
      px[o + 1] = a ? Math.round(acc[1] / acc[3]) : 0;
      px[o + 2] = a ? Math.round(acc[2] / acc[3]) : 0;
      px[o + 3] = Math.round(a);
    }
  }
  return encodePng(size, size, px);
}

/**
 * Every icon file, by path under build/: icon.png is what electron-builder turns into the macOS
 * .icns and the Windows .ico; icons/app/NxN.png is the Linux icon set (names must carry the
 * size); icons/tray* are loaded by the running app (@2x picked on HiDPI screens).
 */
export function icons() {
  const app = (x, y) => sampleIcon(x, y, { tray: false });
  const tray = (x, y) => sampleIcon(x, y, { tray: true });
  const files = { "icon.png": render(1024, app) };
  for (const size of [16, 32, 48, 64, 128, 256, 512]) files[`icons/app/${size}x${size}.png`] = render(size, app);
  files["icons/tray.png"] = render(16, tray);
  files["icons/tray@2x.png"] = render(32, tray);
  files["icons/trayTemplate.png"] = render(16, sampleTemplate);
  files["icons/trayTemplate@2x.png"] = render(32, sampleTemplate);
  return files;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const check = process.argv.includes("--check");
  const stale = [];
  const all = icons();
  for (const [name, png] of Object.entries(all)) {
    const path = join(BUILD, name);
    mkdirSync(dirname(path), { recursive: true });
    if (check) {
      let old = null;
      try {
        old = readFileSync(path);
      } catch {
        /* missing counts as stale */
      }
      if (!old || !old.equals(png)) stale.push(name);
    } else {
      writeFileSync(path, png);
    }
  }
  if (check && stale.length) {
    console.error(`icons: out of date: ${stale.join(", ")} (run node build/icons.mjs)`);
    process.exit(1);
  }
  console.log(check ? "icons: up to date" : `icons: wrote ${Object.keys(all).length} files under ${BUILD}`);
}
