// The Lab's own seeded generator: the same numbers for the same seed on every browser and
// in Node (it need not, and does not, reproduce torch's numbers: a run in the browser
// behaves like one in Python, it is not the same run). sfc32 (Chris Doty-Humphrey's small
// fast counter, 32-bit) seeded through splitmix32, the pair PractRand passes.
//
//   makeRng(seed) -> {uint32(), uniform() in [0, 1), int(lo, hi) in lo .. hi-1 (as
//                     torch.randint), normal() (Box-Muller, mean 0, std 1)}

function splitmix32(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x9e3779b9) >>> 0;
    let z = s;
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b) >>> 0;
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35) >>> 0;
    return (z ^ (z >>> 16)) >>> 0;
  };
}

export function makeRng(seed = 0) {
  const mix = splitmix32(seed);
  let a = mix(),
    b = mix(),
    c = mix(),
    d = mix();
  const uint32 = () => {
    const t = (((a + b) >>> 0) + d) >>> 0;
    d = (d + 1) >>> 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) >>> 0;
    c = ((c << 21) | (c >>> 11)) >>> 0;
    c = (c + t) >>> 0;
    return t;
  };
  for (let i = 0; i < 12; i++) uint32(); // the recommended warm-up
  // 53 random bits: [0, 1) with every double step
  const uniform = () => ((uint32() >>> 5) * 67108864 + (uint32() >>> 6)) / 9007199254740992;
  let spare = null; // Box-Muller gives two normals a draw
  return {
    uint32,
    uniform,
    int: (lo, hi) => lo + Math.floor(uniform() * (hi - lo)),
    normal() {
      if (spare !== null) {
        const s = spare;
        spare = null;
        return s;
      }
      const r = Math.sqrt(-2 * Math.log(1 - uniform())),
        t = 2 * Math.PI * uniform();
      spare = r * Math.sin(t);
      return r * Math.cos(t);
    },
  };
}
