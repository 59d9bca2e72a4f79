// The Lab, together (class mode, issue 43): the teacher's chart of the class's Lab runs.
// static/class_teacher.js builds the teacher's panel and calls panel(call, code, token) once; its
// update() is then called about once a second. It asks GET /ae-class/<code>/lab
// (explorer/server/class_route.py -> explorer/views/class_lab.py):
//   {threshold, students, runs: [{label, students, state, formed_at_step, steps,
//    points: [[step, score], ...]}]}
// and draws, when the answer changed, every run's best induction score over its steps on
// one canvas: a dashed line at the Lab's "formed" bar, a dot where each run formed, and a
// legend whose entries (settings, how many students ran them, formed or not) are text
// nodes: nothing here is markup. Runs with the same settings share one training in the
// Lab, so they are one curve with a count, never drawn once per student.
const COLORS = [
  "#4f46e5",
  "#e11d48",
  "#059669",
  "#d97706",
  "#0891b2",
  "#7c3aed",
  "#65a30d",
  "#db2777",
  "#475569",
  "#b45309",
];
const LEGEND = 10; // entries listed; the rest are counted
const W = 320,
  H = 170,
  PAD = { l: 34, r: 8, t: 8, b: 24 };

function text(tag, props, value) {
  const node = document.createElement(tag);
  Object.assign(node, props);
  node.textContent = value;
  return node;
}

function draw(canvas, data) {
  const dpr = window.devicePixelRatio || 1;
  canvas.width = W * dpr;
  canvas.height = H * dpr;
  const g = canvas.getContext("2d");
  g.setTransform(dpr, 0, 0, dpr, 0, 0);
  const style = getComputedStyle(canvas);
  const ink = style.color || "#111";
  g.clearRect(0, 0, W, H);
  const until = Math.max(1, ...data.runs.map((r) => r.steps || 1));
  const x = (s) => PAD.l + (W - PAD.l - PAD.r) * (s / until);
  const y = (v) => H - PAD.b - (H - PAD.t - PAD.b) * Math.max(0, Math.min(1, v));
  g.strokeStyle = ink;
  g.fillStyle = ink;
  g.lineWidth = 1;
  g.font = "11px sans-serif";
  g.beginPath();
  g.moveTo(PAD.l, PAD.t);
  g.lineTo(PAD.l, H - PAD.b);
  g.lineTo(W - PAD.r, H - PAD.b);
  g.stroke();
  g.textAlign = "right";
  for (const v of [0, 0.5, 1]) g.fillText(`${v * 100}%`, PAD.l - 3, y(v) + 4);
  g.textAlign = "center";
  g.fillText("0", x(0), H - 8);
  g.fillText(`${until} steps`, x(until) - 24, H - 8);
  g.setLineDash([4, 3]);
  g.beginPath();
  g.moveTo(PAD.l, y(data.threshold));
  g.lineTo(W - PAD.r, y(data.threshold));
  g.stroke();
  g.setLineDash([]);
  g.textAlign = "left";
  g.fillText("formed", PAD.l + 3, y(data.threshold) - 3);
  data.runs.forEach((run, i) => {
    const color = COLORS[i % COLORS.length];
    g.strokeStyle = color;
    g.fillStyle = color;
    g.lineWidth = Math.min(5, 1.5 + run.students / 2); // more students, a thicker line
    g.beginPath();
    run.points.forEach(([s, v], k) => (k ? g.lineTo(x(s), y(v)) : g.moveTo(x(s), y(v))));
    g.stroke();
    const at = run.formed_at_step,
      hit = at != null && run.points.find(([s]) => s >= at);
    if (hit) {
      g.beginPath();
      g.arc(x(at), y(hit[1]), 4, 0, 2 * Math.PI);
      g.fill();
    }
  });
}

function legend(list, data) {
  const items = data.runs.slice(0, LEGEND).map((run, i) => {
    const li = document.createElement("li");
    li.dataset.students = String(run.students);
    li.dataset.formed = run.formed_at_step == null ? "" : String(run.formed_at_step);
    const where =
      run.formed_at_step != null
        ? `formed at step ${run.formed_at_step}`
        : run.state === "done"
          ? "no induction head"
          : run.state; // running, stopped, ...
    li.append(
      text(
        "span",
        { className: "ae-class-swatch", style: `background:${COLORS[i % COLORS.length]}` },
        "",
      ),
      `${run.label} · ${run.students === 1 ? "1 student" : run.students + " students"} · ${where}`,
    );
    return li;
  });
  const more = data.runs.length - LEGEND;
  if (more > 0) items.push(text("li", {}, `and ${more} more settings`));
  list.replaceChildren(...items);
}

export const classLab = {
  panel(call, code, token) {
    const canvas = text(
      "canvas",
      {
        id: "class-lab-chart",
        role: "img",
        ariaLabel: "The class's Lab runs: induction score over training steps",
      },
      "",
    );
    canvas.style.width = W + "px";
    canvas.style.height = H + "px";
    const head = text("p", { id: "class-lab-head" }, "");
    const list = text("ol", { id: "class-lab-runs", className: "ae-class-lab-runs" }, "");
    const box = document.createElement("div");
    box.id = "class-lab";
    box.hidden = true;
    box.append(text("h4", {}, "The class's Lab runs"), head, canvas, list);
    let last = "";
    return {
      box,
      async update() {
        const r = await call("GET", code + "/lab", undefined, token);
        if (r.status !== 200) return;
        const now = JSON.stringify(r.data);
        if (now === last) return; // nothing new: no redraw
        last = now;
        const data = r.data;
        box.hidden = !data.runs.length;
        if (!data.runs.length) return;
        const n = data.students,
          k = data.runs.length;
        head.textContent = `${n} student${n === 1 ? "" : "s"} trained · ${k} setting${k === 1 ? "" : "s"} (same settings: one training, one curve)`;
        draw(canvas, data);
        legend(list, data);
      },
    };
  },
};
