// Small js-only wiring of single controls, each one event's whole work in the browser:
// the masked-word switch of the Model knob (explorer/ui/model_knobs.py), Explore's "New?
// Start here" button (explorer/ui/explore_tab.py), the figures' colours from the page's own
// light/dark mode (explorer/app.py) and Patch's lens box emptied by a new sentence.

// The sentence box changed: a "[mask]" on the next-word model switches to the masked-word
// model. data = {mask, from, to, heads, pos} (explorer/views/model_choice.switch_for).
export function maskSwitch([text, objective, heads, pos], s) {
  return (text || "").includes(s.mask) && objective === s.from
    ? [s.to, s.heads, s.pos]
    : [objective, heads, pos];
}

// Explore's newcomer line: its button opens the Start here tab.
export function mountNewcomer({ element }) {
  element.querySelector(".ae-start-link").addEventListener("click", () => {
    const tab = document.querySelector('#tabs button[role="tab"][data-tab-id="start"]');
    if (tab) {
      tab.click();
      tab.focus();
    }
  });
}

// The page's load: the figures' colours follow the page's own mode.
export const pageTheme = () => (document.querySelector(".dark") ? "dark" : "light");

// Every output set to the values bound on the Python side (data: a list, one per output).
export const constant = (_args, data) => data;
