/**
 * Calls `then` in a task of its own once the browser has painted the next frame: a frame
 * callback runs just before that frame's layout and paint, and a task it queues runs after them.
 * Work that reads the layout (a carousel measuring its slides) then finds it done, instead of
 * laying out the page itself in the middle of a longer task. Returns a function that cancels it.
 */
export function afterNextPaint(then: () => void): () => void {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const frame = requestAnimationFrame(() => {
    timer = setTimeout(then, 0);
  });
  return () => {
    cancelAnimationFrame(frame);
    clearTimeout(timer);
  };
}
