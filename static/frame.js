// Work that DOM changes ask for, done at most once a frame: a burst of mutations (Gradio
// re-rendering a tab, a step opening a view) costs one pass, on the next animation frame.
//   onceAFrame(fn)                 a function that schedules fn for the next frame, once
//   observeOnceAFrame(root, options, fn)  fn once a frame while root mutates (options: a
//                                  MutationObserver's observe options)
export function onceAFrame(fn) {
  let pending = false;
  return () => {
    if (pending) return;
    pending = true;
    requestAnimationFrame(() => {
      pending = false;
      fn();
    });
  };
}

export function observeOnceAFrame(root, options, fn) {
  const observer = new MutationObserver(onceAFrame(fn));
  observer.observe(root, options);
  return observer;
}
