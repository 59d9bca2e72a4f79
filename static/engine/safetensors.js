// A zoo checkpoint's bytes (safetensors: an 8-byte header length, a JSON header, then the
// tensors) -> {config, tensors: {name: {shape, data: Float32Array}}}. The model's config
// is the header's __metadata__.explorer_config (explorer/models/checkpoint.py writes it);
// F16 and F32 tensors are read, both as float32 (Python converts F16 to float32 too).

// IEEE half -> float
function halfToFloat(h) {
  const s = h & 0x8000 ? -1 : 1;
  const e = (h >> 10) & 0x1f;
  const f = h & 0x3ff;
  if (e === 0) return s * f * 2 ** -24;
  if (e === 31) return f ? NaN : s * Infinity;
  return s * (1 + f / 1024) * 2 ** (e - 15);
}
const HALF = new Float32Array(65536);
for (let i = 0; i < 65536; i++) HALF[i] = halfToFloat(i);

function tensorData(buffer, name, t, start) {
  const [from, to] = t.data_offsets;
  const count = t.shape.reduce((a, b) => a * b, 1);
  let data;
  if (t.dtype === "F16") {
    const raw = new Uint16Array(buffer.slice(start + from, start + to));
    data = new Float32Array(count);
    for (let i = 0; i < count; i++) data[i] = HALF[raw[i]];
  } else if (t.dtype === "F32") {
    data = new Float32Array(buffer.slice(start + from, start + to));
  } else {
    throw new Error(`tensor ${name}: dtype ${t.dtype} is not supported`);
  }
  if (data.length !== count) throw new Error(`tensor ${name}: wrong size`);
  return data;
}

/** An ArrayBuffer holding a safetensors file -> {config, tensors}. */
export function parseSafetensors(buffer) {
  const view = new DataView(buffer);
  const n = Number(view.getBigUint64(0, true));
  if (n <= 0 || 8 + n > buffer.byteLength) throw new Error("not a safetensors file");
  const header = JSON.parse(new TextDecoder().decode(new Uint8Array(buffer, 8, n)));
  const meta = header.__metadata__ || {};
  if (!meta.explorer_config) throw new Error("the file holds no model configuration");
  const tensors = {};
  for (const [name, t] of Object.entries(header)) {
    if (name === "__metadata__") continue;
    tensors[name] = { shape: t.shape, data: tensorData(buffer, name, t, 8 + n) };
  }
  return { config: JSON.parse(meta.explorer_config), tensors };
}
