// What the page's modules share about the screen, without importing each other (an import
// cycle otherwise: the steps fit figures, the figures ask the steps for room): a small store
// of hooks that the module owning each answer sets when it starts.
//   sentenceBottom()  where the sticky sentence box ends (css px; 0 when it does not stick):
//                     static/page.js, wrapped by static/class.js's bar above it
//   room(gd)          the height a Start-here step leaves a figure, or null: static/steps.js
export const screen = {
  sentenceBottom: () => 0,
  room: () => null,
};
