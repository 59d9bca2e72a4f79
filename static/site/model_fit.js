// Which Heads and Positional encoding the static page's Model knob can reach: only the
// combinations a model was trained (and shipped) for, as the app's knobs do
// (explorer/views/model_choice.py fit_knobs). The masked-word model exists only with 4
// heads and rotary positions: with it chosen, the other choices are offered no more and
// the knobs move to the one model, with a sentence saying so. Pure: no DOM (knobs.js applies
// it to the selects; tests/js/model_fit.test.mjs).
//
//   fitModel({models, objectives, heads, positional}, {objective, heads, pos})
//     -> {heads, pos, headsOffered, posOffered, note}
//   models: the names shipped ("causal-h4-rotary"); objectives: label -> kind
//   ("masked word (bidirectional)" -> "bidir"); heads, positional: every choice, page order

// "masked word (bidirectional)" -> "masked-word"
const kindWord = (objective) => String(objective).split(" (")[0].replace(/ /g, "-");
const said = (h, p) => `${h} ${Number(h) === 1 ? "head" : "heads"}, ${p}`;

export function fitModel(config, knobs) {
  const { models, objectives, heads: allHeads, positional } = config;
  const kind = objectives[knobs.objective];
  const have = new Set(models);
  const trained = [];
  for (const h of allHeads) {
    for (const p of positional) if (have.has(`${kind}-h${h}-${p}`)) trained.push([h, p]);
  }
  const heads = Number(knobs.heads),
    pos = String(knobs.pos);
  if (!trained.length) {
    // nothing of this kind shipped: every choice stays (the grid says the model is missing)
    return { heads, pos, headsOffered: [...allHeads], posOffered: [...positional], note: "" };
  }
  const exists = (h, p) => trained.some(([th, tp]) => th === h && tp === p);
  let to = [heads, pos];
  if (!exists(heads, pos)) {
    to = trained.find(([h]) => h === heads) || trained.find(([, p]) => p === pos) || trained[0];
  }
  const word = kindWord(knobs.objective);
  let note = "";
  if (trained.length === 1) {
    note =
      `Only one ${word} model was trained (${said(...to)}): Heads and Positional ` +
      "encoding are set to it while it is chosen.";
  } else if (to[0] !== heads || to[1] !== pos) {
    note = `No ${word} model was trained with ${said(heads, pos)}: the knobs moved to ${said(...to)}.`;
  }
  return {
    heads: to[0],
    pos: to[1],
    headsOffered: [...new Set(trained.map(([h]) => h))],
    posOffered: trained.filter(([h]) => h === to[0]).map(([, p]) => p),
    note,
  };
}
