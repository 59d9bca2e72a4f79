// The live loop's watch on Gradio's POSTs (static/live.js, step 5): a refused Gradio event.
// A view's event starts with one POST that names the component whose event it is
// (trigger_id: the view's anchor): queue/join, or run/predict for an event without the
// queue. Gradio's client makes it with the global fetch, looked up at each call (Gradio
// 6.31: post_data -> this.fetch -> fetch(...)), so wrapping window.fetch before Gradio
// loads sees it. A refusal (429, 503 queue full, any answer not OK, a network error) means
// no stamp will ever come: the waiting view fails now, not after its timeout.
const JOIN = /\/gradio_api\/(queue\/join|run\/predict)\b/;

// The Gradio component id of a view's anchor: the block around it carries its elem_id.
function triggerId(v) {
  if (v.trigger !== undefined) return v.trigger;
  const components = (window.gradio_config && window.gradio_config.components) || [];
  for (let e = v.anchor; e; e = e.parentElement) {
    const c = e.id && components.find((x) => x.props && x.props.elem_id === e.id);
    if (c) return (v.trigger = c.id);
  }
  return null; // not known (yet): a refusal then fails every waiting view
}

// Fail the view whose event was refused; true when it was surely a view's event.
function refused(views, body) {
  let trigger;
  try {
    trigger = JSON.parse(body).trigger_id;
  } catch {
    return false; // no event
  }
  const waiting = views.filter((v) => v.refuse);
  const mine = waiting.filter((v) => triggerId(v) === trigger);
  // a refused event of another component (a button's) is not the loop's to retry;
  // when a waiting view's id is unknown, every waiting view asks again (harmless)
  const fail = mine.length || waiting.every((v) => triggerId(v) !== null) ? mine : waiting;
  fail.forEach((v) => v.refuse());
  return views.some((v) => v.anchor && triggerId(v) === trigger);
}

// Gradio shows every refused event as an error toast, one more per retry ("Error (4)" over
// the page while the loop quietly asks again). A view's event refused as busy (429 from
// explorer/server/client_guard.py, 503 queue full) is the loop's to tell (the marker says
// it is trying again), so Gradio gets the one refusal it takes without a message: a
// validation error naming no input (422, detail []), which ends the event (Gradio 6.31;
// should that change, the toasts come back, nothing worse: tests/ui/test_retry_browser.py
// checks). Any other refusal reaches Gradio as it came. A network error too: Gradio then
// takes the connection for lost (and says so) and starts no more events, so from then on
// each retry of a Gradio event waits out its timeout.
const QUIET = () =>
  new Response('{"detail": []}', {
    status: 422,
    headers: { "Content-Type": "application/json" },
  });

let watching = false;

// views() -> the loop's views now.
export function watchRefusals(views) {
  const fetch0 = window.fetch;
  if (!fetch0 || watching) return;
  watching = true;
  window.fetch = function (input, init) {
    const answer = fetch0.apply(window, arguments);
    const url = input instanceof Request ? input.url : String(input);
    if (!init || init.method !== "POST" || typeof init.body !== "string" || !JOIN.test(url)) {
      return answer;
    }
    const body = init.body;
    return answer.then(
      (r) => {
        if (r.ok) return r;
        return refused(views(), body) && (r.status === 429 || r.status === 503) ? QUIET() : r;
      },
      (e) => {
        refused(views(), body);
        throw e;
      },
    );
  };
}
